#!/bin/bash
# A thread answer must end while a group's threads keep dying and being
# replaced. The walk of a group of more than 256 threads leaves RCU every
# 256 threads, resting on a pinned thread; when that one is released
# meanwhile its successor is unknown and the walk starts over from the
# first thread, skipping those already in the answer. The skipped ones
# counted toward the next boundary, so on a busy machine (the resting
# thread released at every boundary) the walk could start over for as
# long as the group lived, with the pass lock held. After one restart
# the rest of the group is now walked at once, under its siglock.
# tsthreadrot keeps 400 threads, each replaced once it exits; built with
# the test window (make vm-chunk-window: at each boundary the thread the
# walk rests on is made to exit) the walk restarted at every boundary
# before the fix and its answer came only once the group was gone. With
# a plain build the threads stay and the walk is only checked whole.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
SECS=${PTOP_THREADROT_SECS:-60}
tsthreadrot 400 "$SECS" >"$W/rot" 2>&1 &
rot=$!
wait_ready "$W/rot" $rot 60
check "400 threads running ($(cat "$W/rot"))" grep -q "ready 400" "$W/rot"
# threads exit now and then anyway (a plain build's walk may lose its place)
(while kill -USR1 $rot 2>/dev/null; do sleep 0.05; done) &
usr=$!
for i in 1 2 3 4 5; do
	tsquery -t >"$W/a$i" 2>&1
	rc=$?
	alive=no
	kill -0 $rot 2>/dev/null && alive=yes
	check "thread answer $i ($(head -1 "$W/a$i")): done while the group still churns (churning: $alive)" \
		eval '[ "$rc" = 0 ] && [ "$alive" = yes ]'
done
tsquery -t -r >"$W/r"
n=$(awk '$1 == "rec" && $2 == "T" && $13 == "ptop-threadrot"' "$W/r" | wc -l)
check "the answer has the group's threads ($n, 401 live at a time)" [ "$n" -ge 390 ]
kill $usr $rot 2>/dev/null
wait $usr $rot 2>/dev/null
check_dmesg "thread_restart"
rm -rf "$W"
finish test_kmod_thread_restart
