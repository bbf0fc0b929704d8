#!/bin/bash
# A non-leader exec and the group's death in one pass: the old leader
# exits in de_thread() (a THREAD EXIT record of the leader's pid and
# start) and the exec'er, which de_thread() gives that pid and start,
# dies as the group's last thread (a second THREAD record of the same
# identity, then the GROUP one), both after the pass began. The late
# group's rows (late.c, fit_late_threads()) kept both: two live
# THREAD records of one (pid, start) in one answer (review of tonight's
# exit changes, LOW-MEDIUM). Load: tsload execexit (children one after
# another whose second thread execs tsload, which burns 5 ms and exits)
# and 3,000 sleeping threads (long passes); full thread answers back to
# back (tsquery -G -F), each checked for such twins.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
SECS=${SECS:-40}
sysctl -q -w kernel.threads-max=100000
grep -q '^walk_late_span ' "$STATE" || { bad "the state file has walk_late_span"; finish test_kmod_late_exec; }

tsload execexit 1000000 0 >"$W/exec" &
e1=$!
start_threads 3000 "$W/th"
tsquery -G "$SECS" -F >"$W/late"
rc=$?
kill $e1 $th
wait $e1 $th
cat "$W/late"
pairs=$(sed -n 's/^late pairs=\([0-9]*\).*/\1/p' "$W/late")
twins=$(sed -n 's/^late .* twins=\([0-9]*\).*/\1/p' "$W/late")
check "the check saw at least 20 answer pairs (${pairs:-none})" [ "${pairs:-0}" -ge 20 ]
check "no answer has two live THREAD records of one (pid, start) (${twins:-none})" [ $rc = 0 ]
check_dmesg "late exec"
check_idle_state "late exec"
finish test_kmod_late_exec
