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

# state VALUE-NAME: one number from the module's state file
state() { awk -v k="$1" '$1 == k { print $2 }' "$STATE"; }
# wait_state NAME VALUE [SECS]: up to SECS (5) s (netlink releases detach
# from a work item; a listener starting on a loaded host takes longer)
wait_state() {
	local i
	for i in $(seq $(( ${3:-5} * 10 ))); do
		[ "$(state "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# the seq of an answer line printed by tsquery
# start_threads N FILE: tsload holds N threads (kernel.threads-max raised),
# its output in FILE, its pid in $th; checked once all are ready
start_threads() {
	local i
	sysctl -q -w kernel.threads-max=100000
	tsload threads "$1" >"$2" &
	th=$!
	for i in $(seq 1 600); do
		grep -q ready "$2" && break
		kill -0 $th 2>/dev/null || break
		sleep 0.2
	done
	check "$1 threads started" grep -q "ready $1" "$2"
}
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
