#!/usr/bin/env bash
# valgrind memcheck on ptop -b, 50 intervals of 0.1 s, with each stock
# source of this machine (procfs; taskstats as root), then once more with
# threads, tree, JSON and every column: no memory error, no leak
# (--leak-check=full: definite and possible leaks count as errors), all
# intervals printed, exit 0. The module sources are left to the VM tests.
#
# As root ptop samples at SCHED_FIFO; under valgrind a scan takes longer
# than the interval, so CAP_SYS_NICE is dropped (setpriv) to keep the
# shared machine's CPUs usable: ptop then samples at normal priority,
# which it does anyway when not allowed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || {
	echo "FAIL: valgrind missing (Debian package valgrind, in DEB_TEST)"
	exit 1
}
need_bins "$PTOP"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

nosys_nice=()
[ "$(id -u)" = 0 ] && nosys_nice=(setpriv --bounding-set -sys_nice)

# memcheck NAME N ARGS...: ptop -b -n N -d 0.1 ARGS under valgrind
memcheck() {
	local name=$1 n=$2
	shift 2
	local t0=$SECONDS rc heads
	"${nosys_nice[@]}" valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,possible \
		--log-file="$W/$name.vg" \
		"$PTOP" -b -n "$n" -d 0.1 "$@" >"$W/$name.out" 2>"$W/$name.err"
	rc=$?
	if [ "$*" != "${*/json/}" ]; then
		heads=$(grep -c '"interval_s"' "$W/$name.out")
	else
		heads=$(grep -c '^ptop ' "$W/$name.out")
	fi
	if [ $rc = 0 ] && [ ! -s "$W/$name.vg" ] && [ "$heads" = "$n" ]; then
		echo "ok - valgrind: ptop -b -n $n -d 0.1 $* ($((SECONDS - t0)) s, $heads intervals, no errors)"
	else
		echo "FAIL valgrind: ptop -b -n $n -d 0.1 $* (exit $rc, $heads of $n intervals)"
		head -c 3000 "$W/$name.vg"
		head -c 500 "$W/$name.err"
		fail=1
	fi
}

memcheck procfs 50 --source=procfs
if [ "$(id -u)" = 0 ]; then
	memcheck taskstats 50 --source=taskstats
	memcheck taskstats-threads-tree-json 20 --source=taskstats --threads \
		--tree --format=json \
		-o PID,TGID,PPID,USER,STATE,THREADS,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,total,TIME,RDELAY,nvcsw,nivcsw,minflt,majflt,RSS,COMMAND
else
	memcheck procfs-threads-tree-json 20 --source=procfs --threads --tree \
		--format=json
	echo "SKIP: --source=taskstats needs root (CAP_NET_ADMIN)"
	exit $((fail ? 1 : 77))
fi
exit $fail
