#!/bin/bash
# Per-task steal is a requested event source: the sched_switch probe is
# attached only while a reader that asked for steal (PTOP_TS_CMDF_STEAL)
# holds its /proc/taskstats file or netlink socket, and detached when the
# last one goes; a reader that never asks attaches nothing. Under TCG the
# guest has no steal clock: answers say so (ANSF_NO_STEAL_CLOCK) and ptop
# prints '-' in the steal columns instead of zeros.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)

# a holder's "holding" line, within 5 s (times PATIENCE)
wait_file() { wait_line "$1" "$2" 5; }
# how long holders hold, in seconds times this: the checks made while one
# holds take seconds on a slow kernel (PATIENCE: kmod_common.sh)
HOLD=$(( (PATIENCE + 1) / 2 ))
hexflags() { sed -n 's/^answer .*flags=\(0x[0-9a-f]*\).*/\1/p'; }

check "at load: no steal probe" [ "$(state steal_probe)" = detached ]
check "at load: no steal listener" [ "$(state steal_listeners)" = 0 ]
check "at load: no steal table" [ "$(state steal_bytes)" = 0 ]
tsquery -t >/dev/null
tsquery -n -t >/dev/null
check "answers without STEAL attach nothing" [ "$(state steal_probe)" = detached ]

# over /proc/taskstats: attached while the file is open (held 6 s: the
# three state reads below took over 2 s on a host at load 48)
tsquery -t -S -H $((6 * HOLD)) >"$W/p1" &
q=$!
check "/proc reader asked for steal: holding" wait_file "$W/p1" holding
check "/proc reader holds: probe attached" [ "$(state steal_probe)" = attached ]
check "/proc reader holds: 1 listener" [ "$(state steal_listeners)" = 1 ]
check "/proc reader holds: steal table allocated" [ "$(state steal_bytes)" -gt 0 ]
wait $q
check "/proc file closed: probe detached" wait_state steal_probe detached
check "/proc file closed: 0 listeners" [ "$(state steal_listeners)" = 0 ]
check "/proc file closed: steal table freed" [ "$(state steal_bytes)" = 0 ]

# over generic netlink: attached until the socket is released
tsquery -n -t -S -H $((6 * HOLD)) >"$W/n1" &
q=$!
check "netlink reader asked for steal: holding" wait_file "$W/n1" holding
check "netlink reader holds: probe attached" [ "$(state steal_probe)" = attached ]
wait $q
check "netlink socket released: probe detached" wait_state steal_probe detached
check "netlink socket released: 0 listeners" [ "$(state steal_listeners)" = 0 ]

# two listeners: the hook stays until the last one goes (holds of 3 s and
# 8 s: the second reader can take over a second to reach "holding")
tsquery -t -S -H $((3 * HOLD)) >"$W/a" &
qa=$!
tsquery -n -t -S -H $((8 * HOLD)) >"$W/b" &
qb=$!
wait_file "$W/a" holding && wait_file "$W/b" holding
check "two listeners" [ "$(state steal_listeners)" = 2 ]
wait $qa
check "one of two gone: still attached" [ "$(state steal_probe)" = attached ]
check "one of two gone: 1 listener" [ "$(state steal_listeners)" = 1 ]
wait $qb
check "both gone: detached" wait_state steal_probe detached

# no steal clock under TCG: said, not faked
f=$(tsquery -t -S | hexflags)
clock=$(state steal_clock)
echo "steal_clock=$clock answer flags=$f"
if [ "$clock" = no ]; then
	check "no steal clock: ANSF_NO_STEAL_CLOCK set, ANSF_STEAL not ($f)" \
		eval '[ $(( f & 0x8 )) != 0 ] && [ $(( f & 0x4 )) = 0 ]'
	ptop -b -d 0.3 -n 2 --source=kmod -o PID,ste,cste,xste,total,COMMAND \
		>"$W/ptop" 2>&1
	check "ptop shows '-' for steal without a steal clock" \
		awk '$1 ~ /^[0-9]+$/ { n++; if ($2 != "-" || $3 != "-" || $4 != "-") bad++ }
		     END { exit !(n > 0 && !bad) }' "$W/ptop"
else
	check "steal clock: ANSF_STEAL set ($f)" eval '[ $(( f & 0x4 )) != 0 ]'
fi
check "after ptop: detached" wait_state steal_probe detached
check_idle_state "steal"
check_dmesg "steal"
rm -rf "$W"
finish test_kmod_steal
