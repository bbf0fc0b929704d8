# Sourced by tests/vm/test_kmod_*.sh (inside the VM, see tests/vm/run).
# shellcheck shell=bash
set -u
KO=${PTOP_VM_KMOD_FILE:-$PTOP_REPO/build/kmod/ptop_taskstats.ko}
STATE=/proc/ptop_taskstats_state
fail=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
finish() {
	[ $fail = 0 ] && echo "$1: all checks passed" || echo "$1: FAILED"
	exit $fail
}

require_module() {
	if [ "${PTOP_VM_KMOD:-}" != loaded ] || ! [ -e /proc/taskstats ]; then
		echo "FAIL - the ptop_taskstats module is not loaded"
		exit 1
	fi
}

# PATIENCE: how many times longer the polls below wait on this kernel
# (the condition they wait for is the same; only how long before giving
# up). The debug kernel (tests/vm/build-debug-kernel: KASAN, lockdep...)
# runs the module's tests 5-15 times slower under TCG: 10 there, else 1;
# PTOP_VM_PATIENCE overrides.
PATIENCE=${PTOP_VM_PATIENCE:-$([ "${PTOP_VM_KROLE:-}" = debug ] && echo 10 || echo 1)}
[[ $PATIENCE =~ ^[1-9][0-9]*$ ]] || PATIENCE=1

# state VALUE-NAME: one number from the module's state file
state() { awk -v k="$1" '$1 == k { print $2 }' "$STATE"; }
# wait_state NAME VALUE [SECS]: up to SECS (5) s (netlink releases detach
# from a work item; a listener starting on a loaded host takes longer)
wait_state() {
	local i
	for i in $(seq $(( ${3:-5} * 10 * PATIENCE ))); do
		[ "$(state "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_ready FILE PID [SECS]: until a load generator's output FILE has
# its "ready" line, its process PID ended, or SECS (120) s went by (a
# loaded host makes thousands of tasks slowly); true once ready
wait_ready() {
	local i
	for i in $(seq $(( ${3:-120} * 5 * PATIENCE ))); do
		grep -q ready "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 0.2
	done
	grep -q ready "$1" 2>/dev/null
}

# wait_line FILE REGEX [SECS]: up to SECS (60) s for FILE (a listener's,
# a holder's log) to have a line matching REGEX
wait_line() {
	local i
	for i in $(seq $(( ${3:-60} * 10 * PATIENCE ))); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# raise_sysctl NAME MIN: NAME at least MIN (never lowered)
raise_sysctl() {
	local v
	v=$(sysctl -n "$1" 2>/dev/null) || return 1
	[ "${v:-0}" -ge "$2" ] || sysctl -q -w "$1=$2"
}
# start_threads N FILE: tsload holds N threads, its output in FILE, its pid
# in $th; checked once all are ready. kernel.threads-max (at least 100,000),
# pid_max and vm.max_map_count (a thread's stack and its guard page are
# two mappings) are raised for N; the wait for them grows with N (120 s a
# 20,000)
start_threads() {
	raise_sysctl kernel.threads-max $(( $1 + 20000 > 100000 ? $1 + 20000 : 100000 ))
	raise_sysctl kernel.pid_max $(( $1 + 40000 ))
	raise_sysctl vm.max_map_count $(( 3 * $1 + 65530 ))
	tsload threads "$1" >"$2" &
	th=$!
	wait_ready "$2" $th $(( 120 * (($1 + 19999) / 20000) ))
	check "$1 threads started" grep -q "ready $1" "$2"
}

# start_sleepers N FILE [SECS]: tsload's N sleeping children, its output
# in FILE, its pid in $sl; checked once all are ready (within SECS, 60)
start_sleepers() {
	tsload sleepers "$1" >"$2" &
	sl=$!
	wait_ready "$2" $sl "${3:-60}"
	check "$1 sleepers started" grep -q "ready $1" "$2"
}

# start_zombies N SECS FILE: a parent ($zp) of N children that exit at
# once and are never waited for, for SECS s (then init reaps them); FILE
# gets its "ready" line once all are zombies (waited for here)
start_zombies() {
	python3 -c '
import os, sys, time
for i in range(int(sys.argv[1])):
    if os.fork() == 0:
        os._exit(0)
print("ready", flush=True)
time.sleep(int(sys.argv[2]))
' "$1" "$2" >"$3" &
	zp=$!
	wait_ready "$3" $zp 300
}

# --- the function_graph tracer: how long a kernel function runs (the
# Debian kernel has no irqsoff tracer; a function that runs under a lock
# with interrupts or preemption off is timed whole)
T=/sys/kernel/tracing
# tracefs_mount: mounted at $T
tracefs_mount() { mountpoint -q $T || mount -t tracefs nodev $T; }
# graph_trace FUNC...: only FUNC... traced (set_ftrace_filter) by the
# function_graph tracer, tracing off until traced_median turns it on
graph_trace() {
	tracefs_mount || return 1
	echo 0 >$T/tracing_on
	echo "$*" >$T/set_ftrace_filter || return 1
	echo function_graph >$T/current_tracer
}
# traced_median FUNC FILE CMD...: CMD (its output dropped) with tracing
# on; FUNC's durations (us) sorted into FILE; prints their median (an
# empty line if none was traced)
traced_median() {
	local fn=$1 out=$2
	shift 2
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/tracing_on
	"$@" >/dev/null
	echo 0 >$T/tracing_on
	grep "$fn" $T/trace | sed -n 's/.* \([0-9][0-9.]*\) us .*/\1/p' | sort -n >"$out"
	awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "" }' "$out"
}
# graph_trace_off: the tracer back to nop, no filters left
graph_trace_off() {
	echo nop >$T/current_tracer
	echo >$T/set_graph_function
	echo >$T/set_ftrace_filter
}
# trace_holds FUNC: the function_graph tracer on FUNC and the spinlock
# calls inside it, with absolute timestamps (lock_holds reads them;
# interrupt handlers not traced), tracing off until turned on
trace_holds() {
	graph_trace "$1" _raw_spin_lock_irqsave _raw_spin_unlock_irqrestore &&
		echo "$1" >$T/set_graph_function || return 1
	# the tracer's own options exist once it is the current one
	echo funcgraph-abstime >$T/trace_options &&
		echo nofuncgraph-irqs >$T/trace_options
}
trace_holds_off() {
	echo nofuncgraph-abstime >$T/trace_options
	echo funcgraph-irqs >$T/trace_options
	graph_trace_off
}
# lock_holds FUNC: "N MAX_US SUM_US" of the interrupts-off lock holds that
# FUNC itself takes (lock and unlock calls right under it in the trace of
# trace_holds; those of a preemption or softirq inside an unlock, or of
# the functions FUNC calls, are deeper)
lock_holds() {
	awk -v f0="$1" '
	{ k = split($0, f, "|"); fn = f[k]; match(fn, /^ */); d = RLENGTH }
	index(fn, f0) && fn ~ /[{]/ { base = d; next }
	d != base + 2 { next }
	fn ~ /_raw_spin_lock_irqsave/ { t = $1 + 0; inlock = 1; next }
	fn ~ /_raw_spin_unlock_irqrestore/ {
		if (inlock) { h = ($1 - t) * 1e6; sum += h; if (h > max) max = h; n++ }
		inlock = 0
	}
	END { printf "%d %.1f %.1f\n", n, max, sum }' $T/trace
}

# the seq of an answer line printed by tsquery
seq_of() { sed -n 's/^answer .*seq=\([0-9]*\).*/\1/p'; }
field() { sed -n "s/^answer .*$1=\\([0-9]*\\).*/\\1/p"; }

# counters that must be back to zero when no reader is active
check_idle_state() {
	local o a
	o=$(state open_files); a=$(state answer_bytes)
	check "$1: open_files back to 0 (got $o)" [ "$o" = 0 ]
	check "$1: answer_bytes back to 0 (got $a)" [ "$a" = 0 ]
}

# Kernel reports: WARN/BUG/oops, and what the debug kernel (tests/vm/
# build-debug-kernel) adds: "BUG: KASAN: ...", "BUG: KFENCE: ...", lockdep's
# "WARNING: possible circular locking dependency detected" (and its other
# WARNING: lines), "BUG: sleeping function called from invalid context",
# ODEBUG (with a WARNING:), kmemleak's "N new suspected memory leaks", and
# lockdep turning itself off after a first report or when out of entries.
DMESG_BAD='WARNING:|BUG:|Oops|general protection|Call Trace|KASAN:|UBSAN:'
DMESG_BAD+='|new suspected memory leak|turning off the locking correctness validator'
DMESG_BAD+='|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage'
# no kernel complaint so far (the harness checks again at the end); on a
# lockdep kernel, lockdep still on (/proc/lockdep_stats: debug_locks 1)
check_dmesg() {
	local dl
	if dmesg | grep -E "$DMESG_BAD" >/dev/null; then
		bad "$1: dmesg shows a kernel problem"
		dmesg | grep -E -A20 "$DMESG_BAD" | head -40
	else
		ok "$1: dmesg clean"
	fi
	if [ -r /proc/lockdep_stats ]; then
		dl=$(awk '$1 == "debug_locks:" { print $2 }' /proc/lockdep_stats)
		check "$1: lockdep still validating (debug_locks=${dl:-?})" [ "$dl" = 1 ]
	fi
}

# steal_inject_hold DIR TEST: qemu TCG gives the guest no steal clock
# (every CPU's steal stays 0, the module charges nothing): build the test
# module tests/vm/steal_inject against the running kernel in DIR/si and
# load it (1 us of steal per context switch, so every task switched out
# has steal to be charged, as on a busy host), then start a steal
# listener that holds the module's table for the test (its pid in $hq,
# output in DIR/hold). A failure to build or load ends TEST.
steal_inject_hold() {
	local dir=$1 test=$2
	cp -r "$PTOP_REPO/tests/vm/steal_inject" "$dir/si"
	if ! make -s -C "/lib/modules/$(uname -r)/build" M="$dir/si" modules >"$dir/si.log" 2>&1; then
		cat "$dir/si.log"
		bad "the steal injector builds against $(uname -r)"
		finish "$test"
	fi
	insmod "$dir/si/steal_inject.ko" step_ns=1000 ||
		{ bad "insmod steal_inject"; finish "$test"; }
	check "the module sees a steal clock" [ "$(state steal_clock)" = yes ]
	tsquery -t -S -H 3600 >"$dir/hold" &
	hq=$!
	check "steal listener holding" wait_line "$dir/hold" holding 60
}
