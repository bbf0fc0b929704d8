#!/bin/bash
# Interrupts off: the work a pass does with interrupts off under the
# accounting lock (ptop_ts_acct_pass_begin(): the exit paths of dead
# groups folded at every pass) must not grow with the number of zombies
# (any user can make them): with 20,000 zombies it took 18-21 ms, a loop
# over every dead record and every reporter still waiting to be reaped.
# Measured with the function_graph tracer (the Debian kernel has no
# irqsoff tracer): the whole function runs under the lock. Judged as a
# ratio of medians over 20 passes each, with and without the zombies, so
# that a loaded host (which stretches both) does not decide it; 20x is
# far above the noise of one emulated vCPU and far below what a walk of
# 20,000 records costs against the few dozen of an idle system.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NZ=${NZ:-20000}
tracefs_mount || { bad "tracefs"; finish test_kmod_irqoff; }

# durations (us) of the traced function over 20 passes, median
twenty_passes() { local i; for i in $(seq 20); do tsquery; done; }
passes() { traced_median ptop_ts_acct_pass_begin "$W/d" twenty_passes; }
graph_trace ptop_ts_acct_pass_begin || bad "the function_graph tracer on the module's function"
base=$(passes)
nb=$(wc -l <"$W/d")
check "20 passes traced without zombies ($nb, median ${base} us)" [ "$nb" -ge 20 ]

# a 2 GiB guest allows about 15,000 tasks by default
echo 100000 >/proc/sys/kernel/threads-max
start_zombies "$NZ" 900 "$W/z"
nz=$(ps -e -o stat= | grep -c '^Z')
check "$NZ zombies made (got $nz)" [ "$nz" -ge "$NZ" ]
echo "acct_dead $(state acct_dead) thread_tails $(state thread_tails)"
tsquery >/dev/null	# the first pass after them folds their last stretch
zomb=$(passes)
nz2=$(wc -l <"$W/d")
echo "pass_begin median: ${base} us without zombies, ${zomb} us with $nz"
check "20 passes traced with zombies ($nz2)" [ "$nz2" -ge 20 ]
check "pass_begin with $nz zombies within 20x of without (${zomb} vs ${base} us)" \
	awk -v z="$zomb" -v b="$base" 'BEGIN { exit !(z != "" && b != "" && z <= 20 * (b > 1 ? b : 1)) }'
graph_trace_off
kill $zp
wait $zp 2>/dev/null
for i in $(seq 100); do [ "$(ps -e -o stat= | grep -c '^Z')" -lt 10 ] && break; sleep 0.2; done
check_idle_state "irqoff"
check_dmesg "irqoff"
rm -rf "$W"
finish test_kmod_irqoff
