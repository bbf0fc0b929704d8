#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / uninstall and dkms-install / dkms-uninstall in a DESTDIR:
# exactly the expected files with the expected modes, and uninstall leaves
# none of them. The contrib/ files parse (modprobe --showconfig,
# systemd-sysusers --dry-run) and the load helper resolves the reader group
# by name (with a stand-in modprobe). Completions parse in their shells.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
case $B in /*) bdir=$B ;; *) bdir=$top/$B ;; esac
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/kmod/dkms.conf")
files() { (cd "$root" && find . \( -type f -o -type l \) -printf '%m %P\n' | sort); }

# --- make install ---------------------------------------------------------
if make -C "$top" -s B="$B" PREFIX=/usr DESTDIR="$root" install >"$tmp/install.log" 2>&1; then
	ok "make install PREFIX=/usr DESTDIR=<tmp>"
else
	bad "make install failed:"; tail -5 "$tmp/install.log"
fi
sort >"$tmp/want" <<EOF
755 usr/bin/ptop
755 usr/bin/tstime
644 usr/share/man/man1/ptop.1
644 usr/share/man/man1/tstime.1
644 usr/share/man/man4/ptop_taskstats.4
644 usr/share/man/man5/ptoprc.5
644 usr/share/bash-completion/completions/ptop
644 usr/share/bash-completion/completions/tstime
644 usr/share/zsh/vendor-completions/_ptop
644 usr/share/zsh/vendor-completions/_tstime
644 usr/share/fish/vendor_completions.d/ptop.fish
644 usr/share/fish/vendor_completions.d/tstime.fish
644 usr/share/doc/ptop/examples/ptoprc
644 usr/share/doc/ptop/README.md
644 usr/share/doc/ptop/LICENSE
EOF
files >"$tmp/got"
if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	ok "installed: exactly the $(wc -l <"$tmp/want") expected files, with their modes"
else
	bad "installed files differ from the expected list:"; cat "$tmp/diff"
fi
cmp -s "$root/usr/bin/ptop" "$bdir/ptop" &&
	ok "usr/bin/ptop is the built binary" || bad "usr/bin/ptop is not $B/ptop"
grep -q 'GNU GENERAL PUBLIC LICENSE' "$root/usr/share/doc/ptop/LICENSE" 2>/dev/null &&
	grep -q 'Version 2, June 1991' "$root/usr/share/doc/ptop/LICENSE" &&
	ok "LICENSE is the GPL-2.0 (the module says MODULE_LICENSE(\"GPL\"))" || bad "LICENSE is not the GPL-2.0"
# the example config is one ptop accepts as it is
if "$bdir/ptop" -c "$root/usr/share/doc/ptop/examples/ptoprc" -b -n 1 -d 0.05 \
	--source=procfs >/dev/null 2>"$tmp/cfg.err"; then
	ok "ptop -c <installed examples/ptoprc> runs"
else
	bad "ptop rejects the example config: $(cat "$tmp/cfg.err")"
fi

# an install of other directories puts the files there
if make -C "$top" -s B="$B" PREFIX=/opt/p BASHCOMPDIR=/opt/bc DESTDIR="$tmp/alt" install >/dev/null 2>&1 &&
	[ -f "$tmp/alt/opt/p/bin/ptop" ] && [ -f "$tmp/alt/opt/bc/tstime" ]; then
	ok "PREFIX and BASHCOMPDIR are honoured"
else
	bad "PREFIX=/opt/p BASHCOMPDIR=/opt/bc: files not there"
fi

# --- make uninstall: nothing left -----------------------------------------
if make -C "$top" -s B="$B" PREFIX=/usr DESTDIR="$root" uninstall >"$tmp/uninstall.log" 2>&1; then
	ok "make uninstall"
else
	bad "make uninstall failed:"; tail -5 "$tmp/uninstall.log"
fi
left=$(files)
[ -z "$left" ] && ok "uninstall removed every installed file" || bad "left after uninstall: $left"
[ -d "$root/usr/share/doc/ptop" ] && bad "uninstall left the empty usr/share/doc/ptop" ||
	ok "uninstall removed ptop's own doc directory"
# uninstall of nothing is not an error
make -C "$top" -s B="$B" PREFIX=/usr DESTDIR="$root" uninstall >/dev/null 2>&1 &&
	ok "a second uninstall succeeds (nothing to do)" || bad "a second uninstall fails"

# --- make dkms-install / dkms-uninstall ------------------------------------
rm -rf "$root"
if make -C "$top" -s B="$B" PREFIX=/usr DESTDIR="$root" dkms-install >"$tmp/dkms.log" 2>&1; then
	ok "make dkms-install PREFIX=/usr DESTDIR=<tmp>"
else
	bad "make dkms-install failed:"; tail -5 "$tmp/dkms.log"
fi
{
	for f in "$top"/kmod/*.c "$top"/kmod/*.h "$top"/kmod/Kbuild "$top"/kmod/Makefile "$top"/kmod/dkms.conf; do
		echo "644 usr/src/ptop_taskstats-$ver/${f##*/}"
	done
	for f in "$top"/kmod/uapi/*.h; do echo "644 usr/src/ptop_taskstats-$ver/uapi/${f##*/}"; done
	echo "644 usr/lib/modprobe.d/ptop_taskstats.conf"
	echo "644 usr/lib/modules-load.d/ptop_taskstats.conf"
	echo "644 usr/lib/sysusers.d/ptop.conf"
	echo "755 usr/libexec/ptop/ptop-taskstats-load"
} | sort >"$tmp/want"
files >"$tmp/got"
if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
	ok "dkms-install: exactly the $(wc -l <"$tmp/want") expected files"
else
	bad "dkms-install files differ:"; cat "$tmp/diff"
fi
dkmsconf=$root/usr/src/ptop_taskstats-$ver/dkms.conf
grep -q '^CLEAN=' "$dkmsconf" 2>/dev/null && bad "dkms.conf has the deprecated CLEAN" ||
	ok "dkms.conf without the deprecated CLEAN"
grep -q "^PACKAGE_VERSION=\"$ver\"" "$dkmsconf" 2>/dev/null && ok "dkms.conf version $ver" ||
	bad "installed dkms.conf lacks PACKAGE_VERSION $ver"

# modprobe parses the modprobe.d file, and the helper path in it is installed
mp=$root/usr/lib/modprobe.d/ptop_taskstats.conf
conf=$(modprobe -C "$mp" --showconfig 2>&1)
line=$(grep '^install ptop_taskstats ' <<<"$conf")
if [ -n "$line" ]; then
	ok "modprobe --showconfig: $line"
else
	bad "modprobe does not see an install line in modprobe.d/ptop_taskstats.conf: $conf"
fi
helper=$(awk '{print $3}' <<<"$line")
[ "$helper" = /usr/libexec/ptop/ptop-taskstats-load ] && [ -x "$root$helper" ] &&
	ok "the install line runs the installed helper $helper" || bad "install line's helper '$helper' is not installed"
grep -q -- '--group=ptop' <<<"$line" && ok "the reader group is named (ptop), not a number" ||
	bad "no --group=ptop in the install line"
if command -v systemd-sysusers >/dev/null; then
	out=$(systemd-sysusers --root="$tmp/sysroot" --dry-run "$root/usr/lib/sysusers.d/ptop.conf" 2>&1)
	grep -q "group 'ptop'" <<<"$out" && ok "systemd-sysusers --dry-run: $(grep "group 'ptop'" <<<"$out" | head -1)" ||
		bad "systemd-sysusers does not create group ptop: $out"
fi
grep -qx 'ptop_taskstats' "$root/usr/lib/modules-load.d/ptop_taskstats.conf" &&
	ok "modules-load.d names ptop_taskstats" || bad "modules-load.d/ptop_taskstats.conf does not name the module"

# the helper, with a stand-in modprobe that prints its arguments
printf '#!/bin/sh\necho "$*"\n' >"$tmp/modprobe"
chmod +x "$tmp/modprobe"
h=$root/usr/libexec/ptop/ptop-taskstats-load
rootgid=$(getent group root | cut -d: -f3)
out=$(MODPROBE=$tmp/modprobe "$h" --group=root max_records=100)
[ "$out" = "--ignore-install ptop_taskstats reader_gid=$rootgid max_records=100" ] &&
	ok "helper: group root -> reader_gid=$rootgid, other options passed on" || bad "helper printed '$out'"
out=$(MODPROBE=$tmp/modprobe "$h" --group=ptop-no-such-group 2>"$tmp/h.err")
[ "$out" = "--ignore-install ptop_taskstats" ] && grep -q "no group 'ptop-no-such-group'" "$tmp/h.err" &&
	ok "helper: unknown group: loads root-only and says why ($(cat "$tmp/h.err"))" ||
	bad "helper with an unknown group printed '$out' / '$(cat "$tmp/h.err")'"
out=$(MODPROBE=$tmp/modprobe "$h" --group=root reader_gid=7)
[ "$out" = "--ignore-install ptop_taskstats reader_gid=7" ] &&
	ok "helper: an explicit reader_gid= wins" || bad "helper with reader_gid=7 printed '$out'"
MODPROBE=$tmp/modprobe "$h" --group >/dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "helper: --group without a name: exit 2" || bad "helper --group without a name: exit $rc"

if make -C "$top" -s B="$B" PREFIX=/usr DESTDIR="$root" dkms-uninstall >"$tmp/dkmsu.log" 2>&1; then
	ok "make dkms-uninstall"
else
	bad "make dkms-uninstall failed:"; tail -5 "$tmp/dkmsu.log"
fi
left=$(files)
[ -z "$left" ] && ok "dkms-uninstall removed every file" || bad "left after dkms-uninstall: $left"
[ -e "$root/usr/src/ptop_taskstats-$ver" ] && bad "dkms-uninstall left the source tree" ||
	ok "dkms-uninstall removed usr/src/ptop_taskstats-$ver"

# --- completions parse in their shells ------------------------------------
for f in ptop.bash tstime.bash; do
	bash -n "$top/completions/$f" && ok "bash -n completions/$f" || bad "completions/$f: bash syntax"
done
if command -v zsh >/dev/null; then
	for f in _ptop _tstime; do
		zsh -n "$top/completions/$f" && ok "zsh -n completions/$f" || bad "completions/$f: zsh syntax"
	done
else
	bad "zsh missing (Debian package zsh): zsh completions unchecked"
fi
if command -v fish >/dev/null; then
	for f in ptop.fish tstime.fish; do
		fish -n "$top/completions/$f" && ok "fish -n completions/$f" || bad "completions/$f: fish syntax"
	done
else
	bad "fish missing (Debian package fish): fish completions unchecked"
fi

finish install
