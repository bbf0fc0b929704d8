#!/bin/bash
# Least privilege with the module's sources: after its first interval a
# running ptop keeps only what its source needs (CapEff/CapPrm from
# /proc/PID/status) and goes on reading: kmod_proc (permission checked at
# open) keeps nothing but CAP_SYS_NICE, kmod_nl (checked at every request)
# also CAP_NET_ADMIN; a member of the module's reader group needs nothing.
. "$(dirname "$0")/kmod_common.sh"
require_module
command -v ptop >/dev/null || { echo "FAIL - build/ptop missing"; exit 1; }
W=$(mktemp -d)
NET_ADMIN=$((1 << 12)) SYS_NICE=$((1 << 23))

# run LABEL WANT [prefix...] -- ptop args: the capability sets while it
# runs (after its first interval), then at least 3 more intervals read
# with them. The VM is emulated and slow: a long run, stopped here.
run() {
	local label=$1 want=$2 out=$W/out.$RANDOM p st eff prm n=0
	shift 2
	"$@" -b -d 0.3 -n 100 --no-config -o PID,total,COMMAND >"$out" 2>&1 &
	p=$!
	LAST=$out
	for _ in $(seq 200); do grep -q '^ptop ' "$out" && break; sleep 0.1; done
	st=$(cat /proc/$p/status 2>/dev/null)
	n0=$(grep -c '^ptop ' "$out")
	for _ in $(seq 300); do
		n=$(grep -c '^ptop ' "$out")
		[ "$n" -ge $((n0 + 3)) ] && break
		kill -0 $p 2>/dev/null || break
		sleep 0.1
	done
	kill $p 2>/dev/null
	wait $p 2>/dev/null
	if ! grep -q '^CapEff:' <<<"$st"; then
		bad "$label: ended before its first interval: $(head -c 300 "$out")"
		return
	fi
	eff=$((16#$(awk '/^CapEff:/{print $2}' <<<"$st")))
	prm=$((16#$(awk '/^CapPrm:/{print $2}' <<<"$st")))
	check "$label: CapEff $(printf %x $eff) CapPrm $(printf %x $prm) (want $(printf %x $want))" \
		test "$eff" = "$want" -a "$prm" = "$want"
	check "$label: 3 more intervals after the drop ($n0, then $n; $(grep -v '^ptop \|^idle\|^ *[0-9V]\|^ *PID\|^$' "$out" | head -c 200))" \
		test "$n" -ge $((n0 + 3))
}

run "root, kmod_proc, strict" $SYS_NICE ptop --source=kmod
grep -q "source kmod_proc" "$LAST" || bad "kmod: $(head -3 "$LAST")"
run "root, kmod_nl, strict" $((NET_ADMIN | SYS_NICE)) ptop --source=kmod_nl

# the module's reader group: a normal user reads /proc/taskstats
rmmod ptop_taskstats && insmod "$KO" reader_gid=65534 || bad "reload with reader_gid"
run "nobody in the reader group, kmod_proc" 0 \
	setpriv --reuid=65534 --regid=65534 --clear-groups "$(command -v ptop)" --source=kmod
grep -q "source kmod_proc" "$LAST" || bad "reader group: $(head -3 "$LAST")"
o=$(setpriv --reuid=65534 --regid=1 --clear-groups ptop -b -n 1 --no-config --source=kmod 2>&1)
check "outside the group: refused naming the group ($o)" \
	grep -q "reader group" <<<"$o"
rmmod ptop_taskstats && insmod "$KO" || bad "reload without reader_gid"
rm -rf "$W"
finish test_kmod_caps
