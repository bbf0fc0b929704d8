#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shipped module configuration, for real: `make dkms-install` into a
# DESTDIR, then the install command of its modprobe.d file run as modprobe
# would run it (with its load helper; "modprobe --ignore-install" stands in
# as insmod of the built module, the guest has no /lib/modules of its own).
# The group named in the file (here "adm", by name) gets /proc/taskstats:
# mode 0660 root:adm, a member of adm reads it without any capability, a
# non-member gets EACCES. An unknown group loads the module root-only; an
# explicit reader_gid= wins.
. "$(dirname "$0")/kmod_common.sh"
require_module

tmp=$(mktemp -d)
root=$tmp/root
make -s -C "$PTOP_REPO" B="$tmp/b" PREFIX=/usr DESTDIR="$root" dkms-install >"$tmp/make.log" 2>&1 ||
	{ bad "make dkms-install"; cat "$tmp/make.log"; finish contrib_group; }
conf=$root/usr/lib/modprobe.d/ptop_taskstats.conf
line=$(sed -n 's/^install ptop_taskstats //p' "$conf")
check "modprobe.d has an install line ($line)" [ -n "$line" ]

# modprobe's stand-in: --ignore-install ptop_taskstats OPTS -> insmod KO OPTS
cat >"$tmp/modprobe" <<EOF
#!/bin/sh
[ "\$1" = --ignore-install ] && shift
[ "\$1" = ptop_taskstats ] && shift
exec insmod "$KO" "\$@"
EOF
chmod +x "$tmp/modprobe"

# run the install line as modprobe does: sh -c, $CMDLINE_OPTS = the options
# given to modprobe; the helper path from the line, under DESTDIR
load() {	# GROUP OPTS...
	local group=$1 cmd
	shift
	cmd=${line/--group=ptop/--group=$group}
	cmd="$root$cmd"
	CMDLINE_OPTS="$*" MODPROBE=$tmp/modprobe sh -c "$cmd" 2>"$tmp/load.err"
}

adm=$(getent group adm | cut -d: -f3)
rmmod ptop_taskstats || bad "rmmod"
check "load with --group=adm" load adm
m=$(stat -c '%a %U %G %g' /proc/taskstats)
check "group adm by name: /proc/taskstats is 660 root adm $adm ($m)" [ "$m" = "660 root adm $adm" ]
check "a member of adm (uid 65534, gid adm, no capability) can query" \
	setpriv --reuid=65534 --regid="$adm" --clear-groups tsquery
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups tsquery 2>&1)
check "a non-member still gets EACCES ($out)" [ "$out" = "tsquery: EACCES" ]
g=$(cat /sys/module/ptop_taskstats/parameters/reader_gid)
check "reader_gid parameter = $adm ($g)" [ "$g" = "$adm" ]

rmmod ptop_taskstats || bad "rmmod"
check "load with an explicit reader_gid=65534 (and --group=adm)" load adm reader_gid=65534
m=$(stat -c '%a %g' /proc/taskstats)
check "explicit reader_gid wins: 660 65534 ($m)" [ "$m" = "660 65534" ]

rmmod ptop_taskstats || bad "rmmod"
check "load with a group that does not exist" load ptop-no-such-group
m=$(stat -c '%a %U %G' /proc/taskstats)
check "unknown group: root only, 600 root root ($m)" [ "$m" = "600 root root" ]
grep -q "no group 'ptop-no-such-group'" "$tmp/load.err" &&
	ok "unknown group: says so ($(cat "$tmp/load.err"))" || bad "unknown group: no message ($(cat "$tmp/load.err"))"

# back to the harness's defaults
rmmod ptop_taskstats && insmod "$KO" || bad "reload with defaults"
check_dmesg contrib_group
rm -rf "$tmp"
finish contrib_group
