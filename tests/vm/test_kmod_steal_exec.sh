#!/bin/bash
# Per-task steal across non-leader execs: the steal table's entry of a
# thread that execs while not its group's leader. de_thread() gives the
# exec'er the old leader's pid and start time; the table was keyed by
# (global pid, start), so the exec'er's entry under its old key stayed
# until the table was freed (and its steal before the exec was lost):
# one entry left per such exec (a review's LOW, docs/reliability.md).
# Here N children one after another each have a thread exec (tsload
# execexit), while a steal listener holds the table; once they are all
# gone the table's entries (state file steal_entries) must be back near
# where they were.
#
# qemu TCG gives the guest no steal clock: the test module
# tests/vm/steal_inject adds 1 us to a CPU's steal at every switch (as in
# test_kmod_steal_many), so every task switched out is charged.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
N=${N:-200}

steal_inject_hold "$W" test_kmod_steal_exec
check "the state file counts the table's entries" [ -n "$(state steal_entries)" ]
# a baseline once the tasks of the start have been charged
sleep 1
e0=$(state steal_entries)
c0=$(state steal_charges)
t0=$(date +%s)
tsload execexit "$N" 0 >"$W/ex"
check "$N children, each with a non-leader exec, came and went ($(( $(date +%s) - t0 )) s)" \
	grep -q "done $N" "$W/ex"
sleep 1
e1=$(state steal_entries)
echo "steal entries: $e0 before, $e1 after $N non-leader execs; charges $(( $(state steal_charges) - c0 ))"
# the other tasks of the guest come and go too: a few either way
check "no entry left per exec ($((e1 - e0)) more, at most $((N / 10)))" \
	[ $((e1 - e0)) -le $((N / 10)) ]
check "no charge dropped ($(state steal_dropped))" [ "$(state steal_dropped)" = 0 ]

kill $hq
wait $hq 2>/dev/null
check "listener gone: steal table freed" wait_state steal_bytes 0
check "listener gone: no entries" [ "$(state steal_entries)" = 0 ]
rmmod steal_inject || bad "rmmod steal_inject"
check_idle_state "steal_exec"
check_dmesg "steal_exec"
rm -rf "$W"
finish test_kmod_steal_exec
