#!/bin/bash
# vm-tcg: single
# One TCG thread (vm-tcg), as test_kmod_rmmod_irqoff: the tracer patches
# the entries of _raw_spin_lock_irqsave and the like, then the unload
# patches the tracepoint sites; with multi-threaded TCG one CI rehearsal
# (2026-12-02, from 17:47) hung in the harness's rmmod after every check had
# passed ("soft lockup - CPU#1 stuck [rmmod]", CPU 0's "timer wakeup
# didn't happen"): tests/vm/run's "TCG threading" text-patching fault.
# Interrupts off in the EXIT ring: a "since N" answer copies the EXIT
# records written since answer N out of the ring under ring_lock, with
# interrupts off; one hold for the whole copy was 4 ms at 14,048 records.
# Here 30,000 thread exits (one process of 30,000 threads killed), then
# one thread answer since before them. The ring_lock holds are timed
# inside the copy by the function_graph tracer (the Debian kernel has no
# irqsoff tracer): each _raw_spin_lock_irqsave() right under
# ptop_ts_exits_copy() to the next _raw_spin_unlock_irqrestore()
# (interrupt handlers not traced), with absolute timestamps. Judged by
# the holds' number: at least one per 512 records (one for the whole
# copy before). Their lengths are printed, not judged: with interrupts
# off for the whole copy the guest's trace clock did not move (a 30,000
# record hold showed as 0 us), and a vCPU the host stops stretches one
# hold (6.4 ms once, where 256 records take about 0.5 ms).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
tracefs_mount || { bad "tracefs"; finish test_kmod_exit_ring_copy; }
NR=${NR:-30000}
rmmod ptop_taskstats && insmod "$KO" exit_ring_size=65536 ||
	bad "reload with exit_ring_size=65536"
since=$(tsquery -t | seq_of)
start_threads "$NR" "$W/th"
kill -9 $th
wait $th 2>/dev/null
trace_holds ptop_ts_exits_copy || bad "the function_graph tracer on the copy and the lock"
echo >$T/trace
echo 1 >$T/tracing_on
tsquery -t -s "$since" >"$W/ans"
echo 0 >$T/tracing_on
cat "$W/ans"
exits=$(field count <"$W/ans")
check "the answer since $since holds the $NR exits ($exits records)" [ "${exits:-0}" -ge "$NR" ]
lock_holds ptop_ts_exits_copy >"$W/holds"
grep -m 4 -E "exits_copy|spin" $T/trace
read -r nh maxh sum <"$W/holds"
echo "EXIT ring copy: $nh ring_lock holds, $sum us in all, the longest $maxh us"
check "at least $((NR / 512)) ring_lock holds for $NR records ($nh; 256 records a hold)" [ "${nh:-0}" -ge $((NR / 512)) ]
trace_holds_off
check_idle_state "exit_ring_copy"
check_dmesg "exit_ring_copy"
rm -rf "$W"
finish test_kmod_exit_ring_copy
