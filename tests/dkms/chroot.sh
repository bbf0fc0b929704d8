#!/bin/bash
# tests/dkms/chroot.sh SERIES: the DKMS path a user takes, for one kernel of
# the matrix (tests/vm/kernels), in the cached debootstrap chroot of that
# kernel's Debian release (build/vm/<kver>/chroot, made by tests/vm/kernel.sh
# on first use; needs root): `make -C kmod dkms-install` into the chroot,
# then dkms add, build, install -k <kver> with that release's dkms and gcc.
# Asserts `dkms status` says installed, the installed module's vermagic is
# <kver> and its version is dkms.conf's; then dkms remove, so the cached
# chroot is left as it was.  The installed .ko is kept as
# build/vm/<kver>/dkms/ptop_taskstats.ko.  --prepare: only make the chroot.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
build=$repo/build
me=dkms-chroot
name=ptop_taskstats
fail=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

prepare_only=
[ "${1:-}" = --prepare ] && { prepare_only=1; shift; }
[ $# = 1 ] || { echo "usage: tests/dkms/chroot.sh [--prepare] SERIES (see tests/vm/kernels)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "$me: needs root (debootstrap, chroot)" >&2; exit 1; }
# shellcheck source=tests/vm/kernel.sh
. "$repo/tests/vm/kernel.sh"
mkdir -p "$build/vm"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$repo/kmod/dkms.conf")
[ -n "$ver" ] || { echo "$me: no PACKAGE_VERSION in kmod/dkms.conf" >&2; exit 1; }

# the same locks as tests/vm/run: resolving, then this kernel's cache
exec 9>"$build/vm/.lock" && flock 9 || exit 1
km_resolve "$1" || exit 1
kver=$km_kver
exec 9>&-
mkdir -p "$build/vm/$kver"
exec 8>"$build/vm/$kver/.lock" && flock 8 || exit 1
t0=$(date +%s)
km_chroot "$km_series" "$kver" || { echo "FAIL - the $km_release chroot for $kver"; exit 1; }
[ -n "$prepare_only" ] && { echo "$me: the $km_release chroot for $kver is ready ($(( $(date +%s) - t0 ))s)"; exit 0; }
c=$build/vm/$kver/chroot
in_c() { km_in_chroot "$kver" "$@"; }

echo "# $km_series: $kver in a $km_release chroot ($(in_c gcc --version | head -n1))"
in_c dkms remove -m $name -v "$ver" --all >/dev/null 2>&1
rm -rf "$c/usr/src/$name-$ver"
if make -s -C "$repo/kmod" dkms-install DESTDIR="$c"; then
	ok "make -C kmod dkms-install DESTDIR=<chroot>"
else
	bad "make -C kmod dkms-install"; exit 1
fi
log=$build/vm/$kver/dkms.log
if in_c dkms add -m $name -v "$ver" >"$log" 2>&1; then
	ok "dkms add -m $name -v $ver"
else
	bad "dkms add"; cat "$log"
fi
if in_c dkms build -m $name -v "$ver" -k "$kver" >>"$log" 2>&1; then
	ok "dkms build -k $kver"
else
	bad "dkms build -k $kver"; tail -n 30 "$log"
	cat "$c/var/lib/dkms/$name/$ver/build/make.log" 2>/dev/null | tail -n 40
fi
w=$(grep -ci 'warning' "$c/var/lib/dkms/$name/$ver/build/make.log" 2>/dev/null)
[ "${w:-0}" = 0 ] && ok "no compiler warnings in dkms's make.log" || bad "$w warnings in make.log"
if in_c dkms install -m $name -v "$ver" -k "$kver" >>"$log" 2>&1; then
	ok "dkms install -k $kver"
else
	bad "dkms install -k $kver"; tail -n 30 "$log"
fi
st=$(in_c dkms status -m $name -v "$ver" -k "$kver" 2>&1)
echo "# dkms status: $st"
case $st in
*"$kver"*": installed"*) ok "dkms status: installed for $kver";;
*) bad "dkms status does not say installed for $kver";;
esac
ko=$(find "$c/lib/modules/$kver/updates" -name "$name.ko*" 2>/dev/null | head -n1)
if [ -n "$ko" ]; then
	vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	[ "$vm" = "$kver" ] && ok "installed module's vermagic is $kver" || bad "vermagic '$vm', want $kver"
	v=$(modinfo -F version "$ko")
	[ "$v" = "$ver" ] && ok "installed module's version $v = dkms.conf" || bad "module version '$v', dkms.conf says $ver"
	# modprobe finds it once depmod indexed the tree (sid's dkms 3.2 leaves
	# no modules.dep in a chroot without the kernel's own modules)
	dep=$(in_c sh -c "depmod '$kver' && modprobe -S '$kver' --show-depends $name" 2>&1)
	case $dep in *updates/dkms/$name.ko*) ok "modprobe -S $kver finds updates/dkms/$name.ko";;
	*) bad "modprobe -S $kver: $dep";; esac
	mkdir -p "$build/vm/$kver/dkms" && cp "$ko" "$build/vm/$kver/dkms/$name.ko"
else
	bad "no $name.ko under /lib/modules/$kver/updates in the chroot"
fi
in_c dkms remove -m $name -v "$ver" --all >>"$log" 2>&1
rm -rf "$c/usr/src/$name-$ver"
[ -e "$c/var/lib/dkms/$name" ] && bad "dkms remove left $c/var/lib/dkms/$name"
echo "$me: $km_series ($kver): $(( $(date +%s) - t0 ))s"
[ $fail = 0 ] && echo "$me: $km_series: all checks passed" || echo "$me: $km_series: FAILED"
exit $fail
