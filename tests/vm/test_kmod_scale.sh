#!/bin/bash
# Large answers: 10,000 threads in one process plus 2,000 processes, in one
# consistent answer over both transports; and with a small max_records the
# module pages (ANSF_MORE + next_pid) and the lib's sources follow the pages.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NT=10000 NP=2000
sysctl -q -w kernel.threads-max=100000 kernel.pid_max=4194304

tsload threads $NT >"$W/thr" &
th=$!
tsload sleepers $NP >"$W/sl" &
sl=$!
for i in $(seq 1 $((600 * PATIENCE))); do
	grep -q ready "$W/thr" && grep -q ready "$W/sl" && break
	kill -0 $th $sl 2>/dev/null || break
	sleep 0.2
done
check "$NT threads and $NP processes started" eval 'grep -q "ready $NT" "$W/thr" && grep -q "ready $NP" "$W/sl"'

for t in "" -n; do
	t0=$(date +%s%N)
	a=$(tsquery -t $t)
	t1=$(date +%s%N)
	echo "full answer ${t:-/proc}: $a ($(( (t1 - t0) / 1000000 )) ms)"
	c=$(field threads <<<"$a")
	check "full answer ${t:-over /proc} has every thread ($c >= $((NT + NP)))" [ "$c" -ge $((NT + NP)) ]
done
s=$(tsquery -t | seq_of)
a=$(tsquery -t -s "$s")
echo "since-N answer right after: $a"
check "since-N answer is small ($(field count <<<"$a") records)" [ "$(field count <<<"$a")" -lt 500 ]

# max_records 1000: the sleepers' processes come in pages, through the lib
rmmod ptop_taskstats && insmod "$KO" max_records=1000 || bad "reload with max_records=1000"
a=$(tsquery)
check "max_records=1000: a process answer stops at 1000 with MORE ($(field count <<<"$a") records, more=$(field more <<<"$a"))" \
	eval '[ "$(field count <<<"$a")" -le 1000 ] && [ "$(field more <<<"$a")" = 1 ]'
for s in kmod kmod_nl; do
	n=$(ptop -b -n 1 -o PID,COMMAND --source=$s 2>"$W/err" | awk '$2 == "tsload"' | wc -l)
	check "ptop --source=$s with max_records=1000 shows all $((NP + 2)) tsload processes (got $n)" [ "$n" = $((NP + 2)) ]
done
rmmod ptop_taskstats && insmod "$KO" || bad "reload with defaults"

kill $th $sl; wait 2>/dev/null
check_idle_state "scale"
check_dmesg "scale"
rm -rf "$W"
finish test_kmod_scale
