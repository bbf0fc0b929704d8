#!/bin/bash
# Intervals with exits stay on the quick path (the module's cost follows the
# active tasks): while
# children exit between every two passes, each "since N" answer walks the
# marked tasks and copies the EXIT ring, never every task, and still holds
# exactly what a full walk of the same pass sees (tsquery -X, crosscheck=1).
# Also the module's probe_timing parameter (bench/probe_cost.sh): off by
# default, on it counts every switch, off again it stops.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)

rmmod ptop_taskstats && insmod "$KO" crosscheck=1 track_linger=2 ||
	bad "reload with crosscheck=1"

tsload sleepers 2000 >"$W/sl" &
sl=$!
for i in $(seq 1 300); do grep -q ready "$W/sl" && break; sleep 0.2; done
check "2,000 sleepers started" grep -q 'ready 2000' "$W/sl"

# one child after another, each burning 20 ms then exiting: exits all
# along the reader's passes (a pass every 0.1 s)
tsload shortlived 100000 20 >/dev/null &
sh=$!
sleep 1
e0=$(state exits_total)
f0=$(state track_full_walks)
m0=$(state track_marked_walks)
tsquery -t -X 15 -i 0.1 >"$W/x" 2>&1
rc=$?
e1=$(state exits_total)
f1=$(state track_full_walks)
m1=$(state track_marked_walks)
kill $sh; wait $sh 2>/dev/null
grep -E '^(miss|crosscheck)' "$W/x" | tail -5
line=$(grep '^crosscheck' "$W/x")
passes=$(sed -n 's/.* passes=\([0-9]*\).*/\1/p' <<<"$line")
fulls=$(sed -n 's/.* full_answers=\([0-9]*\).*/\1/p' <<<"$line")
check "cross-check with exits between passes: no miss (rc=$rc)" [ "$rc" = 0 ]
# (how many passes fit in 15 s depends on the host's load: enough to mean
# something, and about one exit per pass or more)
check "children exited during the passes ($((e1 - e0)) exits in $passes passes)" \
	[ $((e1 - e0)) -ge $(( ${passes:-2} / 2 )) ]
check "at least 10 incremental passes checked (got ${passes:-0})" [ "${passes:-0}" -ge 10 ]
check "no since-N answer fell back to a full walk (full_answers=${fulls:-?})" \
	[ "${fulls:-1}" = 0 ]
# the reader's first answer is the only full walk; the cross-check's own
# full walks are not counted as the answer's walk
check "one full walk (the first answer), the rest marked ($f0 -> $f1 full, $m0 -> $m1 marked)" \
	[ $((f1 - f0)) = 1 -a $((m1 - m0)) -ge "${passes:-1}" ]

# probe_timing: the switch probe's own time, for bench/probe_cost.sh
P=/sys/module/ptop_taskstats/parameters/probe_timing
check "probe_timing off by default" [ "$(cat $P)" = N ]
c0=$(state switch_probe_calls)
check "probe_timing off: no switch timed ($c0), no clock figure" \
	[ "$c0" = 0 -a "$(state switch_probe_clock_ns)" = 0 ]
echo 1 >$P
sleep 1
c1=$(state switch_probe_calls); n1=$(state switch_probe_ns)
k=$(state switch_probe_clock_ns)
check "probe_timing on: switches timed ($c1 calls, $n1 ns, empty timing $k ns)" \
	[ "$c1" -gt 0 -a "$n1" -gt 0 -a "$k" -ge 0 ]
echo 0 >$P
c2=$(state switch_probe_calls)
sleep 1
check "probe_timing off again: the count stops ($c2 -> $(state switch_probe_calls))" \
	[ "$(state switch_probe_calls)" = "$c2" ]
out=$(echo bogus 2>&1 >$P)
check "probe_timing: a bad value is refused and changes nothing ($(cat $P))" \
	[ "$(cat $P)" = N ]

kill $sl 2>/dev/null; wait 2>/dev/null
check "activity probe detached after the last reader (linger 2 s)" wait_state track_probe detached
rmmod ptop_taskstats && insmod "$KO" || bad "reload without parameters"
check_idle_state "exits"
check_dmesg "exits"
rm -rf "$W"
finish test_kmod_incremental_exits
