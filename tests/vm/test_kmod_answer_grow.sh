#!/bin/bash
# An answer is sized before its walk (kmod/walk_groups.c: ptop_ts_walk_count(), n +
# n/8 + 64 records, or the selection's); tasks that come during the walk
# can outgrow it. The answer once stopped there and said
# MORE with next_pid although the reader had set no max_count (the uapi:
# MORE is "stopped at max_count"): the 10-minute attack's two thread
# readers each got one such answer ("MORE without max_count",
# docs/reliability.md). Now the module grows the answer and walks on from
# that group, and MORE short of max_count comes only with ANSF_ROOM (the
# reader's budget). Load: tsload burst, bursts of 1,000 threads created
# as fast as possible and woken together (the task count jumps by far
# more than n/8 + 64 within milliseconds, and 1,000 threads run at once:
# a "since N" selection is outgrown too), and a fork storm beside; thread
# answers back to back without max_count, full ones and "since N" ones,
# over /proc and netlink, each checked by tsquery -V (no MORE without
# ROOM; root's answers are never refused by the budget, so no ROOM
# either). The state file's walk_grows counts the answers that grew
# during their walk (walk_grow()): it must move, or the load never
# outgrew an answer and the test proved nothing.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
SECS=${SECS:-30}
sysctl -q -w kernel.threads-max=100000
g0=$(state walk_grows); gr0=$(state walk_grows_refused)

tsload burst $((SECS + 5)) 1000 >"$W/burst" &
b=$!
tsload forkstorm $((SECS + 5)) >"$W/storm" &
s=$!
sleep 1
tsquery -V "$SECS" -t -F >"$W/proc_full" 2>&1 &
r1=$!
tsquery -V "$SECS" -t -n -F >"$W/nl_full" 2>&1 &
r2=$!
tsquery -V "$SECS" -t >"$W/proc_since" 2>&1 &
r3=$!
tsquery -V "$SECS" -t -n >"$W/nl_since" 2>&1 &
r4=$!
wait $r1 $r2 $r3 $r4
wait $b $s
echo "load: $(cat "$W/burst") of 1,000 threads, $(cat "$W/storm")"
for r in proc_full nl_full proc_since nl_since; do
	echo "$r: $(grep -v '^validate ' "$W/$r" | head -n 3)"
	v=$(grep '^validate ' "$W/$r")
	check "$r: thread answers without max_count all whole, none lost ($v)" \
		eval '[[ $v =~ ^validate\ passes=[1-9][0-9]*\ bad=0\ lost=0\ .*room=0$ ]]'
done
g1=$(state walk_grows); gr1=$(state walk_grows_refused)
echo "answers grown during their walk: $(( ${g1:-0} - ${g0:-0} )), growths refused: $(( ${gr1:-0} - ${gr0:-0} ))"
check "the walk's growth path ran (walk_grows ${g0:-none} -> ${g1:-none})" \
	eval '[ -n "$g0" ] && [ -n "$g1" ] && [ "$g1" -gt "$g0" ]'
check "no growth refused to root (walk_grows_refused ${gr0:-none} -> ${gr1:-none})" \
	eval '[ -n "$gr1" ] && [ "$gr1" = "$gr0" ]'
check_dmesg "answer grow"
check_idle_state "answer grow"
rm -rf "$W"
finish test_kmod_answer_grow
