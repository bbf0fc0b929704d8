#!/bin/bash
# A group's record under the group's pid while its threads exec: a
# non-leader exec (de_thread()) gives the leader's pid to the exec'er
# (exchange_tids()), and until the old leader is released it has the
# exec'er's old tid. The walk picks a group's leader before it reads the
# group; group_record() once took the identity from the
# leader it had picked, and an exec in between made a GROUP record with
# pid != tgid (pid 1099, tgid 1097): another process, to a reader. Every
# answer kind (full and "since N", processes and threads, /proc and
# netlink) for SECS seconds each while ptop_churn, two loops of non-leader
# execs (tsload execexit) and a fork storm run, each answer checked by tsquery -V
# (sizes, records: a GROUP record's pid is its tgid; -P: padding 0 too).
. "$(dirname "$0")/kmod_common.sh"
require_module
SECS=${SECS:-4}

( end=$((SECONDS + SECS * 8 + 30)); while [ $SECONDS -lt $end ]; do
	ptop_churn 1 >/dev/null 2>&1; done ) &
ch=$!
tsload forkstorm $((SECS * 8 + 30)) >/dev/null 2>&1 &
fs=$!
# non-leader execs back to back, two at a time (test_kmod_late_exec's load)
tsload execexit 1000000 0 >/dev/null 2>&1 &
x1=$!
tsload execexit 1000000 0 >/dev/null 2>&1 &
x2=$!
sleep 1
for m in "" "-t" "-F" "-F -t" "-n" "-n -t" "-n -F" "-n -F -t"; do
	name="tsquery -V $SECS ${m:-(since N, processes, /proc)}"
	# shellcheck disable=SC2086
	v=$(tsquery -P -V "$SECS" $m 2>&1 | grep -v '^pads ' | tail -n 3)
	check "$name: every record well formed under execs, none bad or lost ($v)" \
		eval '[[ $v =~ validate\ passes=[1-9][0-9]*\ bad=0\ lost=0\  ]]'
done
kill $ch $fs $x1 $x2 2>/dev/null
wait 2>/dev/null
check_dmesg "exec identity"
finish test_kmod_exec_identity
