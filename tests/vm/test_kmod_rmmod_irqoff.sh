#!/bin/bash
# vm-timeout: 900
# vm-tcg: single
# Interrupts off at unload: rmmod with thousands of accounting records
# once freed them all in one interrupts-off hold of ptop_acct_lock (137 ms
# when found); ptop_ts_acct_exit() now frees them a hash bucket per hold
# with cond_resched() between. Measured with the function_graph tracer
# (the Debian kernel has no irqsoff tracer) on everything rmmod runs in
# the kernel: each interrupts-off stretch (from the outermost
# spin_lock_irq/irqsave to its unlock), the objects freed in it and its
# length. Judged on the work done with interrupts off, not on time (a
# loaded host stretches any hold): no stretch frees more than
# MAX_FREES objects while the unload frees one a record, $N or more
# (the fix: a hash bucket's records, a dozen; before it, all of them).
# One TCG thread (vm-tcg): the tracer patches the entries of
# _raw_spin_lock_irqsave, kfree and the like, which the other vCPU runs
# all the time; with multi-threaded TCG the guest stalled right after
# (RCU stall reports, once for good) in each of 4 runs ("timer wakeup didn't happen"), the same
# text-patching fault as in tests/vm/run's "TCG threading").
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
N=${NS:-5000}
MAX_FREES=64
M=$(modinfo -F name "$KO")
tracefs_mount || { bad "tracefs"; finish test_kmod_rmmod_irqoff; }

echo 100000 >/proc/sys/kernel/threads-max
start_sleepers "$N" "$W/s" 300
recs=$(state acct_groups)
check "a record for each sleeper ($recs for $N)" [ "${recs:-0}" -ge "$N" ]

echo 0 >$T/tracing_on
# (enough for ~15,000 events; not shrunk afterwards: shrinking unlinks
# every page with interrupts off, on a loaded host an RCU stall)
echo 8192 >$T/buffer_size_kb
sys=$(grep -m1 -oE '^__(x64|ia32)_sys_delete_module' $T/available_filter_functions)
check "the delete_module syscall traceable ($sys)" [ -n "$sys" ]
echo "$sys _raw_spin_lock_irqsave _raw_spin_unlock_irqrestore" \
	"_raw_spin_lock_irq _raw_spin_unlock_irq kmem_cache_free kfree" \
	>$T/set_ftrace_filter || bad "set_ftrace_filter"
echo "$sys" >$T/set_graph_function
echo function_graph >$T/current_tracer
echo funcgraph-abstime >$T/trace_options
echo nofuncgraph-irqs >$T/trace_options
echo >$T/trace
echo 1 >$T/tracing_on
rmmod "$M" || bad "rmmod"
echo 0 >$T/tracing_on
over=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' $T/per_cpu/cpu*/stats)
check "the trace kept every event (overrun $over)" [ "$over" = 0 ]

# "HOLDS MAX_FREES MAX_US FREES": the interrupts-off stretches of rmmod
awk '
{ k = split($0, f, "|"); fn = f[k] }
fn ~ /_raw_spin_lock_irq(save)?\(\)/ {
	if (depth++ == 0) { t = $1 + 0; frees = 0 }
	next
}
fn ~ /_raw_spin_unlock_irq(restore)?\(\)/ {
	if (depth > 0 && --depth == 0) {
		h = ($1 - t) * 1e6; n++
		if (h > maxh) maxh = h
		if (frees > maxf) maxf = frees
	}
	next
}
fn ~ /(kmem_cache_free|kfree)\(\)/ { all++; if (depth) frees++ }
END { printf "%d %d %.1f %d\n", n, maxf, maxh, all }' $T/trace >"$W/h"
read -r holds maxf maxus frees <"$W/h"
echo "rmmod with $recs records: $frees objects freed, $holds interrupts-off stretches," \
	"at most $maxf objects freed and ${maxus} us in one"
check "rmmod freed an object a record at least ($frees for $recs)" [ "$frees" -ge "$recs" ]
check "no interrupts-off stretch of rmmod freed more than $MAX_FREES objects (at most $maxf)" \
	[ "$maxf" -le "$MAX_FREES" ]
echo nofuncgraph-abstime >$T/trace_options
echo funcgraph-irqs >$T/trace_options
graph_trace_off

# the sleepers gone before the module comes back (their exits at once,
# each through the exit probe, starved the RCU kthread of a loaded host)
kill $sl
wait $sl 2>/dev/null
for i in $(seq 300); do [ "$(ps -e --no-headers | wc -l)" -lt 200 ] && break; sleep 0.2; done
insmod "$KO" || bad "insmod at the end"
check_dmesg "rmmod_irqoff"
rm -rf "$W"
finish test_kmod_rmmod_irqoff
