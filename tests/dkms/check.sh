#!/bin/bash
# DKMS packaging check, on the host (no VM): `make -C kmod dkms-install`
# into a temporary DESTDIR, then `dkms add` + `dkms build` of that source
# tree against the Debian headers on this machine, with a private dkms tree
# (and a private signing key), so /var/lib/dkms is never touched. Asserts
# that the module is built and carries the version from dkms.conf.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
name=ptop_taskstats
fail=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

command -v dkms >/dev/null || { echo "dkms-check: dkms not installed (apt-get install dkms)"; exit 1; }
kver=${PTOP_DKMS_KVER:-}
if [ -z "$kver" ]; then
	kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
		grep -o 'linux-headers-[0-9][^ ,()]*' | head -n1)
	kver=${kver#linux-headers-}
fi
kdir=/usr/src/linux-headers-$kver
[ -n "$kver" ] && [ -d "$kdir" ] || { echo "dkms-check: no kernel headers (apt-get install linux-headers-amd64)"; exit 1; }
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$repo/kmod/dkms.conf")
[ -n "$ver" ] || { echo "dkms-check: no PACKAGE_VERSION in kmod/dkms.conf"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/root/usr/src
tree=$tmp/dkms
mkdir -p "$tree"
# dkms signs with these when sign-file exists; keep the key out of /var/lib/dkms
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub

t0=$(date +%s%N)
if make -s -C "$repo/kmod" dkms-install DESTDIR="$tmp/root"; then
	ok "make -C kmod dkms-install DESTDIR=<tmp>"
else
	bad "make dkms-install"; exit 1
fi
for f in dkms.conf Kbuild Makefile main.c uapi/ptop_taskstats.h; do
	[ -f "$src/$name-$ver/$f" ] || bad "installed tree lacks $f"
done
leftover=$(find "$repo/kmod" -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' | head -3)
[ -z "$leftover" ] && ok "kmod/ holds no build artefacts" || bad "build artefacts in kmod/: $leftover"

# a plain make inside the installed tree (as a user debugging the module
# would run it) builds the module there and writes nothing outside it
intree=$tmp/intree/usr/src/$name-$ver
mkdir -p "$tmp/intree/usr/src"
cp -a "$src/$name-$ver" "$intree"
touch "$tmp/stamp"
sleep 1
if make -s -C "$intree" KDIR="$kdir" >"$tmp/intree.log" 2>&1 && [ -f "$intree/$name.ko" ]; then
	ok "make inside the installed tree builds $name.ko there"
else
	bad "make inside the installed tree:"; tail -5 "$tmp/intree.log"
fi
outside=$( { find "$tmp" -newer "$tmp/stamp" ! -path "$intree" ! -path "$intree/*" \
	! -path "$tmp/intree.log" -print; find "$repo/build" -newer "$tmp/stamp" -print 2>/dev/null; } |
	grep -vx -e "$tmp" -e "$tmp/intree" -e "$tmp/intree/usr" -e "$tmp/intree/usr/src" | head -5)
[ -z "$outside" ] && ok "make inside the installed tree wrote only inside it" ||
	bad "make inside the installed tree wrote outside it: $outside"
make -s -C "$intree" KDIR="$kdir" clean >/dev/null 2>&1
[ -f "$intree/main.c" ] && [ -f "$intree/dkms.conf" ] && [ ! -e "$intree/$name.ko" ] &&
	ok "make clean there removes the build, keeps the sources" ||
	bad "make clean inside the installed tree: sources lost or .ko left"

dk() { dkms "$@" --sourcetree "$src" --dkmstree "$tree"; }
if dk add -m $name -v "$ver" >"$tmp/add.log" 2>&1; then
	ok "dkms add -m $name -v $ver"
else
	bad "dkms add"; cat "$tmp/add.log"
fi
if dk build -m $name -v "$ver" -k "$kver" --kernelsourcedir "$kdir" >"$tmp/build.log" 2>&1; then
	ok "dkms build -k $kver --kernelsourcedir $kdir"
else
	bad "dkms build"; cat "$tmp/build.log"
	find "$tree" -name make.log -exec cat {} +
fi
ko=$(find "$tree/$name/$ver/$kver" -name "$name.ko*" 2>/dev/null | head -n1)
if [ -n "$ko" ]; then
	ok "module built: ${ko#"$tmp"/}"
	v=$(modinfo -F version "$ko" 2>/dev/null)
	[ "$v" = "$ver" ] && ok "module version $v = dkms.conf" || bad "module version '$v', dkms.conf says $ver"
	a=$(modinfo -F alias "$ko" 2>/dev/null | tr '\n' ' ')
	case $a in *net-pf-16-proto-16-family-$name*) ok "genl family alias ($a)";; *) bad "no genl alias ($a)";; esac
	w=$(grep -ci 'warning' "$(find "$tree" -name make.log | head -n1)")
	[ "$w" = 0 ] && ok "no compiler warnings in make.log" || bad "$w warnings in make.log"
else
	bad "no $name.ko under the dkms tree"
fi
dk remove -m $name -v "$ver" --all >/dev/null 2>&1
[ -e /var/lib/dkms/$name ] && bad "/var/lib/dkms/$name exists (the check must not touch it)"
t1=$(date +%s%N)
echo "dkms-check: $(( (t1 - t0) / 1000000 )) ms"
[ $fail = 0 ] && echo "dkms-check: all checks passed" || echo "dkms-check: FAILED"
exit $fail
