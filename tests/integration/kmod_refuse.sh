#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module refuses, with a clear message and before anything compiles,
# to be built for kernels it cannot run on: PREEMPT_RT (its probes take
# spinlocks and allocate with interrupts off, where spinlocks sleep) and
# 32-bit ones (its 64-bit divisions and counters). A copy of the
# installed Debian headers whose config says so stands in for such a
# kernel (make -n: Kbuild is read, nothing is compiled); the installed
# headers themselves are not refused. DKMS skips such kernels too
# (dkms.conf's BUILD_EXCLUSIVE_CONFIG, read against the kernel's .config).
set -u
. "$(dirname "$0")/lib.sh"

kver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	grep -o '[0-9][^ ,]*-amd64' | head -n1)
hdr=/usr/src/linux-headers-$kver
if [ -z "$kver" ] || [ ! -d "$hdr" ]; then
	echo "kmod_refuse: FAIL: no kernel headers (apt-get install linux-headers-amd64)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$top/kmod" "$tmp/src"

# fake NAME SED-SCRIPT: the headers with their config edited
fake() {
	cp -a "$hdr" "$tmp/$1"
	ln -sfn "$(readlink -f "$hdr/scripts")" "$tmp/$1/scripts"
	ln -sfn "$(readlink -f "$hdr/tools")" "$tmp/$1/tools"
	sed -i -e "$2" "$tmp/$1/include/config/auto.conf" "$tmp/$1/.config"
}
# kbuild KDIR: make -n's output for the module against KDIR
kbuild() { make -n -C "$1" M="$tmp/src" modules 2>&1; }

fake rt '$a CONFIG_PREEMPT_RT=y'
fake b32 '/^CONFIG_64BIT=y$/d'
for k in rt:PREEMPT_RT b32:32-bit; do
	out=$(kbuild "$tmp/${k%%:*}")
	if grep -q "ptop_taskstats: .*${k#*:}.*not supported" <<<"$out" &&
	   ! grep -q 'main\.c' <<<"$out"; then
		ok "${k#*:} headers: refused before compiling"
	else
		bad "${k#*:} headers: not refused"
		tail -3 <<<"$out"
	fi
done
out=$(kbuild "$hdr")
if grep -q 'main\.c' <<<"$out" && ! grep -q 'not supported' <<<"$out"; then
	ok "$kver: not refused (the module's sources are compiled)"
else
	bad "$kver: refused"
	tail -3 <<<"$out"
fi

# DKMS's own rule (dkms 3.0: "CONFIG_X" must be =y/m, "!CONFIG_X" not)
excl=$(sed -n 's/^BUILD_EXCLUSIVE_CONFIG="\(.*\)"$/\1/p' "$top/kmod/dkms.conf")
dkms_excludes() {
	local c
	for c in $excl; do
		case $c in
		!*) grep -q -E "^${c#!}=[ym]" "$1/.config" && return 0 ;;
		*) grep -q -E "^$c=[ym]" "$1/.config" || return 0 ;;
		esac
	done
	return 1
}
if [ -n "$excl" ] && dkms_excludes "$tmp/rt" && dkms_excludes "$tmp/b32" &&
   ! dkms_excludes "$hdr"; then
	ok "dkms.conf's BUILD_EXCLUSIVE_CONFIG ($excl) skips both, not $kver"
else
	bad "dkms.conf's BUILD_EXCLUSIVE_CONFIG (${excl:-none}) does not tell them apart"
fi

[ $fails = 0 ] && echo "kmod_refuse: all checks passed" || echo "kmod_refuse: $fails FAILED"
exit $((fails != 0))
