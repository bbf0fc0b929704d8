#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as a user gets them (make deb, debian/):
#  - `make deb` (dpkg-buildpackage -us -uc -b in a copy of the tree) builds
#    ptop and ptop-taskstats-dkms; lintian finds no error in them;
#  - each holds what it must: ptop, tstime, the man pages, the completions,
#    /etc/ptoprc as a conffile; the module's sources with dkms.conf, the
#    sysusers, modprobe.d and modules-load.d files;
#  - both install with apt into a clean Debian 12 chroot (debootstrap,
#    minbase; the pristine tree is cached as $B/deb-chroot/base.tar and
#    unpacked anew each run) together with that release's kernel headers:
#    `ptop -b -n 1` runs there, the group ptop exists, and `dkms build` of
#    the module for the chroot's headers works (its vermagic is theirs).
# Not in `make check` (minutes: a debootstrap, downloads, a module build);
# `make check-all` runs it. Needs root and the packages of DEB_PKG
# (Makefile). When it cannot build the chroot it says why and FAILS.
# PTOP_DEBIAN_MIRROR=URL: another mirror than the host's apt sources'.
set -u
B=${B:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $B in /*) bdir=$B ;; *) bdir=$top/$B ;; esac
fails=0
ok()  { echo "  ok: $*"; }
bad() { echo "  FAIL: $*"; fails=$((fails + 1)); }
finish() {
	[ $fails = 0 ] && echo "deb: all passed" || echo "deb: $fails failed"
	exit $((fails > 0))
}
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/kmod/dkms.conf")
release=bookworm

# --- build and lint ----------------------------------------------------------
need=$(sed -n 's/^DEB_PKG := //p' "$top/Makefile")
[ -n "$need" ] || { bad "no DEB_PKG list in the Makefile"; finish; }
missing=$(for p in $need; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	grep -q 'ok installed' || echo "$p"; done)
[ -z "$missing" ] || { bad "missing Debian packages: $(echo $missing) (DEB_PKG)"; finish; }

log=$bdir/logs/deb-build.log
mkdir -p "$bdir/logs"
if make -C "$top" -s B="$B" deb >"$log" 2>&1; then
	ok "make deb (dpkg-buildpackage -us -uc -b)"
else
	bad "make deb failed:"; tail -n 20 "$log"; finish
fi
d=$bdir/deb
main=$d/ptop_${ver}_amd64.deb
dkmsdeb=$d/ptop-taskstats-dkms_${ver}_all.deb
[ -f "$main" ] && [ -f "$dkmsdeb" ] && ok "ptop_${ver} and ptop-taskstats-dkms_${ver} built" ||
	{ bad "packages missing: $(ls "$d")"; finish; }

# errors fail; warnings are printed (a native package's own choices)
if lintian --fail-on error --tag-display-limit 0 "$d"/ptop_"${ver}"_amd64.changes \
	>"$d/lintian.txt" 2>&1; then
	ok "lintian: no errors ($(grep -c '^W:' "$d/lintian.txt") warnings)"
else
	bad "lintian:"; grep -E '^[EW]:' "$d/lintian.txt"
fi
grep '^W:' "$d/lintian.txt" | sed 's/^/    /'

# --- contents -------------------------------------------------------------------
has() {	# deb, paths...
	local deb=$1 p list
	shift
	list=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
	for p in "$@"; do
		grep -qx "$p" <<<"$list" || { bad "$(basename "$deb") lacks $p"; return 1; }
	done
	ok "$(basename "$deb") has $*"
}
has "$main" /usr/bin/ptop /usr/bin/tstime /etc/ptoprc \
	/usr/share/man/man1/ptop.1.gz /usr/share/man/man1/tstime.1.gz \
	/usr/share/man/man4/ptop_taskstats.4.gz /usr/share/man/man5/ptoprc.5.gz \
	/usr/share/bash-completion/completions/ptop /usr/share/zsh/vendor-completions/_ptop \
	/usr/share/fish/vendor_completions.d/ptop.fish /usr/share/doc/ptop/README.md.gz
dpkg-deb -I "$main" conffiles 2>/dev/null | grep -qx /etc/ptoprc &&
	ok "/etc/ptoprc is a conffile" || bad "/etc/ptoprc is not a conffile"
has "$dkmsdeb" "/usr/src/ptop_taskstats-$ver/dkms.conf" \
	"/usr/src/ptop_taskstats-$ver/uapi/ptop_taskstats.h" \
	/usr/lib/sysusers.d/ptop.conf /usr/lib/modprobe.d/ptop_taskstats.conf \
	/usr/lib/modules-load.d/ptop_taskstats.conf /usr/libexec/ptop/ptop-taskstats-load
dpkg-deb -I "$dkmsdeb" postinst | grep -q 'systemd-sysusers.*ptop.conf' &&
	dpkg-deb -I "$dkmsdeb" postinst | grep -q 'DKMS_NAME=ptop_taskstats' &&
	ok "its postinst creates the group and registers the module with DKMS" ||
	bad "the dkms package's postinst lacks sysusers or dkms"

# --- a clean Debian 12 chroot ---------------------------------------------------
[ "$(id -u)" = 0 ] || { bad "the chroot install needs root (debootstrap, chroot)"; finish; }
for t in debootstrap unshare chroot; do
	command -v $t >/dev/null || { bad "$t missing: no chroot install"; finish; }
done
apt_url() {	# the host's apt URL of a Debian archive (debian, debian-security)
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -oE "https?://[^ ]*/$1/?( |\$)" | head -n1 | tr -d ' ' | sed 's|/$||'
}
mirror=${PTOP_DEBIAN_MIRROR:-$(apt_url debian)}
mirror=${mirror:-http://deb.debian.org/debian}
security=$(apt_url debian-security)
security=${security:-${mirror}-security}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cache=$bdir/deb-chroot
c=$cache/root
mkdir -p "$cache"
exec 9>"$cache/.lock" && flock 9 || { bad "cannot lock $cache"; finish; }
if [ ! -f "$cache/base.tar" ]; then
	echo "  # debootstrap $release from $mirror (once; cached as ${cache#$top/}/base.tar)"
	rm -rf "$c"
	if ! debootstrap --variant=minbase --keyring="$keyring" "$release" "$c" "$mirror" \
		>"$cache/debootstrap.log" 2>&1; then
		bad "debootstrap $release from $mirror failed (see ${cache#$top/}/debootstrap.log):"
		tail -n 5 "$cache/debootstrap.log"
		rm -rf "$c"; finish
	fi
	tar -C "$c" -cf "$cache/base.tar.tmp" . && mv "$cache/base.tar.tmp" "$cache/base.tar" ||
		{ bad "cannot keep the debootstrap tree"; finish; }
fi
rm -rf "$c" && mkdir -p "$c" && tar -C "$c" -xf "$cache/base.tar" ||
	{ bad "cannot unpack ${cache#$top/}/base.tar"; finish; }
trap 'rm -rf "$c"' EXIT
# a snapshot mirror's Release files are past their Valid-Until
cat >"$c/etc/apt/sources.list" <<EOF
deb $mirror $release main
deb $security $release-security main
EOF
echo 'Acquire::Check-Valid-Until "false";' >"$c/etc/apt/apt.conf.d/99ptop-test"
cp "$main" "$dkmsdeb" "$c/tmp/"

# in_c CMD...: CMD in the chroot with /proc, /sys and /dev in a private mount
# namespace (gone when CMD ends)
in_c() {
	unshare --mount --propagation private -- sh -c '
		c=$1; shift
		mount -t proc proc "$c/proc" && mount --rbind /sys "$c/sys" &&
		mount --rbind /dev "$c/dev" || exit 125
		exec chroot "$c" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' sh "$c" "$@"
}
ilog=$bdir/logs/deb-chroot.log
if in_c sh -c 'apt-get update && apt-get install -y --no-install-recommends linux-headers-amd64' \
	>"$ilog" 2>&1; then
	ok "the chroot's kernel headers (linux-headers-amd64 of $release)"
else
	bad "apt-get install linux-headers-amd64 in the chroot failed (see ${ilog#$top/}):"
	tail -n 8 "$ilog"; finish
fi
kver=$(ls "$c/usr/src" | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
[ -n "$kver" ] || { bad "no linux-headers-*-amd64 in the chroot"; finish; }
if in_c apt-get install -y --no-install-recommends \
	"/tmp/$(basename "$main")" "/tmp/$(basename "$dkmsdeb")" >>"$ilog" 2>&1; then
	ok "apt-get install ptop ptop-taskstats-dkms in a clean $release chroot"
else
	bad "installing the packages failed (see ${ilog#$top/}):"; tail -n 15 "$ilog"; finish
fi

out=$(in_c ptop -b -n 1 -d 0.2 2>&1)
st=$?
[ $st = 0 ] && grep -q '^ptop .* accounted .* of ' <<<"$out" &&
	ok "ptop -b -n 1 runs in the chroot: $(grep -m1 -o 'source [a-z_]*' <<<"$out")" ||
	bad "ptop -b -n 1 in the chroot: exit $st: $(head -c 400 <<<"$out")"
out=$(in_c tstime true 2>&1)
[ $? = 0 ] && ok "tstime true runs in the chroot" || bad "tstime in the chroot: $out"
in_c getent group ptop >/dev/null && ok "the group ptop exists (sysusers)" ||
	bad "no group ptop in the chroot"
in_c test -f /etc/ptoprc && ok "/etc/ptoprc installed" || bad "no /etc/ptoprc"
# (the postinst may have built it already for these headers: again)
if in_c dkms build --force -m ptop_taskstats -v "$ver" -k "$kver" >>"$ilog" 2>&1; then
	ko=$(in_c sh -c "find /var/lib/dkms/ptop_taskstats/$ver/$kver -name 'ptop_taskstats.ko*' | head -n1")
	vm=$(in_c modinfo -F vermagic "$ko" 2>/dev/null)
	[[ $vm == "$kver "* ]] && ok "dkms build -k $kver: $ko (vermagic $vm)" ||
		bad "dkms build: module '$ko', vermagic '$vm', not $kver"
else
	bad "dkms build -m ptop_taskstats -v $ver -k $kver (see ${ilog#$top/}):"
	tail -n 20 "$ilog"
fi
in_c dkms status ptop_taskstats | sed 's/^/    /'
if in_c apt-get purge -y ptop ptop-taskstats-dkms >>"$ilog" 2>&1 &&
   ! in_c test -e "/usr/src/ptop_taskstats-$ver" && ! in_c test -e /usr/bin/ptop; then
	ok "apt-get purge removes both"
else
	bad "purge left files (see ${ilog#$top/})"
fi
finish
