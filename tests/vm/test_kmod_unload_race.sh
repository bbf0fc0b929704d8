#!/bin/bash
# rmmod while a reader runs passes back to back on an open /proc/taskstats
# and processes come and go: each CPU's task (act_here.curr) is kept by
# the sched_switch probe only, so once that probe is detached it may be a
# freed task, and a pass that reads it then reads freed memory. No pass
# may run after the probe went: the module removes its entry points
# (genetlink family, /proc files) first, and forgets each CPU's task.
# The reader's write after that fails (EIO), and the module unloads.
# Built with the test window (make vm-unload-window: a second after the
# probe went, and a warning when a pass reads a CPU's task in it) the
# test shows the order: before the fix its reader ran passes in that
# second and the warning fired in each round; the debug kernel's KASAN
# would see the read of a freed task there. With a plain build the race
# is only tried (a short window).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
ROUNDS=${PTOP_UNLOAD_ROUNDS:-3}
M=$(modinfo -F name "$KO")
for r in $(seq "$ROUNDS"); do
	tsload forkstorm 30 >/dev/null 2>&1 &
	fs=$!
	tsquery -L 1000000 >"$W/q$r" 2>&1 &
	q=$!
	sleep 1
	s0=$(state seq)
	sleep 1
	s1=$(state seq)
	check "round $r: the reader runs passes (seq $s0 -> $s1)" \
		[ "${s1:-0}" -gt "${s0:-0}" ]
	rmmod "$M" || bad "round $r: rmmod"
	wait $q
	rc=$?
	check "round $r: the reader's pass failed once the file went (rc=$rc: $(tail -1 "$W/q$r"))" \
		[ "$rc" != 0 ]
	kill $fs 2>/dev/null
	wait $fs 2>/dev/null
	insmod "$KO" || { bad "round $r: insmod"; break; }
done
if dmesg | grep -q "test build: unload window"; then
	echo "a window build: a second after the switch probe went at each rmmod"
	check "no pass read a CPU's task after the switch probe went" \
		eval '! dmesg | grep -q "read after the switch probe went"'
else
	echo "not a window build (make vm-unload-window): the race was only tried"
fi
check_dmesg "unload_race"
rm -rf "$W"
finish test_kmod_unload_race
