#!/bin/bash
# tests/vm/batch_guest.sh TEST...: inside one guest booted by tests/vm/run
# (tests/vm/batch starts it), run several VM test scripts one after the
# other, each as tests/vm/run would run it alone:
#   - the module freshly loaded (with PTOP_VM_KMOD_PARAMS), unloaded after
#     the script; an unload that fails or hangs fails the test (120);
#   - its own timeout (its "# vm-timeout:" line, default 600 s), stdin
#     /dev/null, in a session of its own whose leftovers are killed after;
#   - the kernel's log since the previous test checked for problems with
#     the same patterns as tests/vm/run (121).
# Each test is framed by "@@PTOP-VM-TEST-BEGIN name@@" and
# "@@PTOP-VM-TEST-END name status secs@@" on the console; the host splits
# the console at these lines.  A boot costs seconds of emulated CPU, a
# fresh load of the module well under one.
set -u
name=ptop_taskstats
pat='WARNING:|BUG:|Oops|RCU stall|self-detected stall|detected stalls|general protection fault'
pat+='|KASAN|UBSAN:|list_add corruption|list_del corruption|kernel BUG|Call Trace'
pat+='|Kernel panic|soft lockup|hard LOCKUP|blocked for more than|refcount_t:'
pat+='|new suspected memory leak|turning off the locking correctness validator'
pat+='|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage'
ok='loading out-of-tree module taints kernel|module verification failed'

kernel_problems() { # what the kernel logged since the last call, if bad
	dmesg -c 2>/dev/null | grep -E "$pat" | grep -vE "$ok" | head -n 20
}

loaded() { grep -q "^$name " /proc/modules; }

# the harness loaded the module before this script: every test gets its own
load_module() {
	[ "${PTOP_VM_KMOD:-absent}" = loaded ] || return 0
	loaded && return 0
	# shellcheck disable=SC2086 # the parameters are split on purpose
	insmod "$PTOP_VM_KMOD_FILE" ${PTOP_VM_KMOD_PARAMS:-}
}

unload_module() { # bounded: a task stuck in the module keeps rmmod waiting
	loaded || return 0
	rmmod "$name" & local rp=$! i
	for i in $(seq 120); do kill -0 $rp 2>/dev/null || break; sleep 0.5; done
	if kill -0 $rp 2>/dev/null; then
		echo "ptop-vm-batch: rmmod $name still waiting 60s after the script"
		cat /proc/$rp/stack 2>/dev/null
		return 1
	fi
	wait $rp
}

run_test() { # script
	local t=$1 base to sidf sid st t0 bad
	base=$(basename "$t" .sh)
	to=$(sed -n 's/^# vm-timeout: *\([0-9]*\)$/\1/p' "$t" | head -n1)
	to=${to:-600}
	echo "@@PTOP-VM-TEST-BEGIN $base@@"
	t0=$(date +%s)
	if ! load_module; then
		echo "@@PTOP-VM-TEST-END $base 120 0@@"
		return
	fi
	sidf=$(mktemp)
	PTOP_VM_TIMEOUT=$to setsid -w bash -c 'echo $$ >"$1"; shift; exec timeout -k 10 "$@"' \
		sh "$sidf" "$to" bash "$t" </dev/null
	st=$?
	[ $st = 124 ] && echo "ptop-vm-batch: $base timed out after ${to}s"
	read -r sid <"$sidf" 2>/dev/null && [ -n "$sid" ] && pkill -KILL -s "$sid" 2>/dev/null
	rm -f "$sidf"
	if ! unload_module; then
		echo "ptop-vm-batch: $base: unloading the module after it failed"
		[ $st = 0 ] && st=120
	fi
	bad=$(kernel_problems)
	if [ -n "$bad" ]; then
		echo "ptop-vm-batch: $base: kernel problems in dmesg:"
		printf '%s\n' "$bad" | sed 's/^/    /'
		[ $st = 0 ] && st=121
	fi
	echo "@@PTOP-VM-TEST-END $base $st $(( $(date +%s) - t0 ))@@"
}

bad=$(kernel_problems)
[ -z "$bad" ] || { echo "ptop-vm-batch: kernel problems before the first test:"; printf '%s\n' "$bad"; }
# the harness unloads the module after this script: leave it as found
for t in "$@"; do
	run_test "$t"
done
load_module
exit 0
