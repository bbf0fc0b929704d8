#!/bin/bash
# vm-tcg: single
# vm-timeout: 1200
# Load, use, unload the module 20 times while a fork storm runs: no kernel
# warnings, the module's own counters back to zero, rmmod always succeeds.
. "$(dirname "$0")/kmod_common.sh"
require_module

tsload forkstorm 3600 >/dev/null &
storm=$!
sleep 1
t0=$(date +%s.%N)
for i in $(seq 1 20); do
	# concurrent readers on both transports
	out1=$(tsquery -t) & p1=$!
	tsquery -n -t >/tmp/nl.$i; r2=$?
	wait $p1; r1=$?
	s=$(tsquery -t | seq_of)
	inc=$(tsquery -t -s "$s")
	if [ $r1 != 0 ] || [ $r2 != 0 ] || [ -z "$inc" ]; then
		bad "round $i: queries failed ($r1 $r2)"
	fi
	o=$(state open_files); a=$(state answer_bytes)
	if [ "$o" != 0 ] || [ "$a" != 0 ]; then
		bad "round $i: open_files=$o answer_bytes=$a before rmmod"
	fi
	used=$(state exit_ring_used)
	rmmod ptop_taskstats || { bad "round $i: rmmod failed"; break; }
	[ -e /proc/taskstats ] && bad "round $i: /proc/taskstats still there after rmmod"
	insmod "$KO" || { bad "round $i: insmod failed"; break; }
	echo "round $i: ok (exit ring had $used records)"
done
t1=$(date +%s.%N)
kill $storm; wait $storm 2>/dev/null
echo "20 load/use/unload rounds under a fork storm: $(echo "$t1 - $t0" | bc) s"
check "the module still answers" tsquery -t
check_idle_state "after the loop"
# a reader from before a reload gets RESYNC (seq bases differ)
s=$(tsquery -t | seq_of)
rmmod ptop_taskstats && insmod "$KO"
r=$(tsquery -t -s "$s" | field resync)
check "since a seq from before a reload: RESYNC (got resync=$r)" [ "$r" = 1 ]
check_dmesg "load loop"
finish test_kmod_load
