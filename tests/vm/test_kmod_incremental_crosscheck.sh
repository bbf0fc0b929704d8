#!/bin/bash
# vm-timeout: 1200
# Every "since N" answer against a full walk of the same pass, under churn,
# for minutes (module loaded with crosscheck=1): a monitor that merges the
# incremental answers (tsquery -X) must hold exactly what the full walk
# sees, counter for counter, at every pass. Churn: fork/exit/exec/orphan/
# thread trees (ptop_churn), a fork storm, sleepers, busy tasks; then a
# SCHED_FIFO task alone on CPU 1 that runs whole passes without a switch.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
SECS=${PTOP_XCHECK_SECS:-120}

rmmod ptop_taskstats && insmod "$KO" crosscheck=1 track_linger=2 ||
	bad "reload with crosscheck=1"

start_sleepers 2000 "$W/sl"
tsload busy 2 >/dev/null &
bz=$!
ptop_churn "$((SECS * 5))" >"$W/churn" 2>&1 &
ch=$!
# more non-leader execs (de_thread() swaps the exec'er's and the leader's
# pids while a pass may be between picking the group and reading it)
ptop_churn -p exec "$((SECS * 5))" >/dev/null 2>&1 &
ex1=$!
ptop_churn -p exec,threads "$((SECS * 5))" >/dev/null 2>&1 &
ex2=$!
tsload forkstorm "$((SECS * 5))" >/dev/null 2>&1 &
fs=$!

# rounds of SECS until 100 passes were checked (a starved guest makes
# fewer per second), at most five
rc=0 passes=0 fulls=0 rounds=0
while [ "$passes" -lt 100 ] && [ "$rounds" -lt 5 ]; do
	tsquery -t -X "$SECS" -i 0.2 >"$W/x" 2>&1 || rc=$?
	tail -25 "$W/x"
	line=$(grep '^crosscheck' "$W/x")
	np=$(sed -n 's/.* passes=\([0-9]*\).*/\1/p' <<<"$line")
	nf=$(sed -n 's/.* full_answers=\([0-9]*\).*/\1/p' <<<"$line")
	passes=$((passes + ${np:-0})) fulls=$((fulls + ${nf:-1000})) rounds=$((rounds + 1))
done
check "cross-check ran and found no miss (rc=$rc)" [ "$rc" = 0 ]
check "at least 100 incremental passes were checked (got ${passes:-0})" [ "${passes:-0}" -ge 100 ]
check "few passes fell back to a full walk (${fulls:-?} of ${passes:-0})" \
	[ "${fulls:-1000}" -le $(( ${passes:-0} / 10 + 1 )) ]
grep -E '^track_' "$STATE"

# a task that does not switch out for most passes (SCHED_FIFO alone on
# CPU 1: only RT throttling, 50 ms a second, takes it off): seen as the
# CPU's current task at each drain
kill $ch $ex1 $ex2 $fs $bz 2>/dev/null; wait $ch $ex1 $ex2 $fs $bz 2>/dev/null
taskset -c 1 chrt -f 50 tsload busy 1 >/dev/null &
fifo=$!
sleep 1
taskset -c 0 tsquery -t -X 10 -i 0.2 >"$W/x2" 2>&1
rc=$?
# the spinning child first: its parent (also FIFO, on CPU 1) waits for it
pkill -9 -P $fifo; kill -9 $fifo; wait $fifo 2>/dev/null
grep -E '^(miss|crosscheck)' "$W/x2" | tail -5
check "cross-check with a task that never switches: no miss (rc=$rc)" [ "$rc" = 0 ]

kill $sl 2>/dev/null; wait 2>/dev/null
# the probe goes track_linger seconds after the last reader
check "activity probe detached after the last reader (linger 2 s)" wait_state track_probe detached
check "track entries freed with it" wait_state track_entries 0
rmmod ptop_taskstats && insmod "$KO" || bad "reload without parameters"
out=$(tsquery -X 1 2>&1)
check "CROSSCHECK refused without crosscheck=1 ($out)" eval 'grep -q EOPNOTSUPP <<<"$out"'
check_idle_state "crosscheck"
check_dmesg "crosscheck"
rm -rf "$W"
finish test_kmod_incremental_crosscheck
