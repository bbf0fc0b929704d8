#!/bin/bash
# The harness's emulated CPUs survive kernel text patching.  Every probe the
# module attaches or detaches (tracepoints: static keys and static calls)
# makes the guest kernel rewrite live code with text_poke_bp while the other
# vCPU may be running it.  qemu's multi-threaded TCG got this wrong (Oops:
# int3 in __schedule within 6-52 s of this loop on 6.12), which looked like a
# module bug; tests/vm/run runs all vCPUs of a 6.12 or newer guest in one
# host thread since (5.10 and 6.1 keep a thread per vCPU and pass).  This
# test toggles the sched_switch tracepoint through tracefs (no module needed)
# while both vCPUs context-switch, and checks the guest is alive and dmesg
# clean afterwards (the harness fails the run on any Oops or panic).
set -u
secs=${1:-30}
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr || { echo "FAIL - no tracefs"; exit 1; }
t=$tr/events/sched/sched_switch/enable
[ -w $t ] || { echo "FAIL - $t not writable"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "FAIL - needs 2 vCPUs, has $(nproc)"; exit 1; }
pids=()
for i in 1 2 3 4; do (while :; do sleep 0.0005; done) & pids+=($!); done
end=$((SECONDS + secs)); n=0
while [ $SECONDS -lt $end ]; do
	echo 1 >$t && echo 0 >$t || { echo "FAIL - toggle $n failed"; kill "${pids[@]}"; exit 1; }
	n=$((n + 1))
done
kill "${pids[@]}"; wait 2>/dev/null
[ "$n" -gt 0 ] || { echo "FAIL - no toggle in ${secs}s"; exit 1; }
echo "ok   - sched_switch tracepoint toggled $n times in ${secs}s with both vCPUs switching; guest alive"
