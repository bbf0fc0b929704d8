#!/bin/bash
# rmmod during a fork storm of multi-threaded processes: the module's dead
# thread entries (thread_tail.c) hold task references, so that ending
# them at unload never reads a freed task_struct; the references are all
# dropped (task_struct objects back to the baseline), dmesg stays clean,
# and the module loads again and answers every time.
. "$(dirname "$0")/kmod_common.sh"
require_module
ROUNDS=${ROUNDS:-5}
tasks() { awk '$1 == "task_struct" { print $2 }' /proc/slabinfo; }
sleep 1
t0=$(tasks)
tails=0
for r in $(seq "$ROUNDS"); do
	ptop_churn -p threads,ign 3 >/dev/null &
	c=$!
	(for i in $(seq 300); do /bin/true & done; wait) &
	f=$!
	sleep 1
	n=$(state thread_tails)
	tails=$((tails + ${n:-0}))
	rmmod ptop_taskstats || { bad "round $r: rmmod failed"; break; }
	insmod "$KO" || { bad "round $r: insmod failed"; break; }
	tsquery -t >/dev/null || bad "round $r: no answer after the reload"
	wait $c $f
done
echo "thread tails live just before the rmmods: $tails"
check "the storm left dead-thread entries at unload ($tails)" [ "$tails" -gt 0 ]
sleep 2
t1=$(tasks)
echo "task_struct objects: $t0 before, $t1 after"
check "task references dropped: task_struct back to the baseline" \
	[ "$t1" -le $((t0 + 24)) ]
check_idle_state "rmmod_storm"
check_dmesg "rmmod_storm"
finish test_kmod_rmmod_storm
