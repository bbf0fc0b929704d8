#!/bin/bash
# Issue 14 defect 8, the EXIT ring: a "since N" answer copies the EXIT
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
graph_trace ptop_ts_exits_copy _raw_spin_lock_irqsave _raw_spin_unlock_irqrestore ||
	bad "the function_graph tracer on the copy and the lock"
echo ptop_ts_exits_copy >$T/set_graph_function
# the tracer's own options exist once it is the current one
echo funcgraph-abstime >$T/trace_options || bad "funcgraph-abstime"
echo nofuncgraph-irqs >$T/trace_options || bad "nofuncgraph-irqs"
echo >$T/trace
echo 1 >$T/tracing_on
tsquery -t -s "$since" >"$W/ans"
echo 0 >$T/tracing_on
cat "$W/ans"
exits=$(field count <"$W/ans")
check "the answer since $since holds the $NR exits ($exits records)" [ "${exits:-0}" -ge "$NR" ]
# the copy's own holds: lock and unlock calls right under it (those of
# a preemption or softirq inside an unlock are deeper)
awk '
{ k = split($0, f, "|"); fn = f[k]; match(fn, /^ */); d = RLENGTH }
fn ~ /ptop_ts_exits_copy/ && fn ~ /[{]/ { base = d; next }
d != base + 2 { next }
fn ~ /_raw_spin_lock_irqsave/ { t = $1 + 0; inlock = 1; next }
fn ~ /_raw_spin_unlock_irqrestore/ {
	if (inlock) { h = ($1 - t) * 1e6; sum += h; if (h > max) max = h; n++ }
	inlock = 0
}
END { printf "%d %.1f %.1f\n", n, max, sum }' $T/trace >"$W/holds"
grep -m 4 -E "exits_copy|spin" $T/trace
read -r nh maxh sum <"$W/holds"
echo "EXIT ring copy: $nh ring_lock holds, $sum us in all, the longest $maxh us"
check "at least $((NR / 512)) ring_lock holds for $NR records ($nh; 256 records a hold)" [ "${nh:-0}" -ge $((NR / 512)) ]
echo nofuncgraph-abstime >$T/trace_options
echo funcgraph-irqs >$T/trace_options
graph_trace_off
check_idle_state "exit_ring_copy"
check_dmesg "exit_ring_copy"
rm -rf "$W"
finish test_kmod_exit_ring_copy
