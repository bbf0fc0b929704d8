#!/bin/bash
# Host-side self-test of tests/vm/run (the VM harness): boots the guest a few
# times and checks that the harness reports what happened inside it.
#   pass.sh FILE TEXT   -> 0, and FILE (under build/) holds TEXT on the host
#   exit3.sh            -> 3 (the script's own status)
#   kmsg_warning.sh     -> non-zero (a "WARNING:" in the guest's dmesg)
#   kmsg_kmemleak.sh    -> 121 (kmemleak / lockdep-off lines, debug kernel)
#   sleep.sh            -> 124 (its "# vm-timeout: 5": guest-side timeout),
#                          and the guest reports its tasks left (stacks, sysrq w)
#   panic.sh            -> non-zero (kernel crash: no end marker)
# Runs two VMs at a time (the harness allows concurrent runs).  The module is
# neither built nor loaded here (PTOP_VM_KMOD_LOAD=0): that is vm-check's job.
set -u
cd "$(dirname -- "$0")/../.." || exit 1
repo=$(pwd -P)

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "SKIP: qemu-system-x86_64 not installed (make test-deps)"
	exit 0
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/vm-selftest.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
mkdir -p build/vm || exit 1
token="selftest $$ with  spaces & 'quotes'"
shared=$repo/build/vm/selftest-file.$$
rm -f "$shared"

# Prepare the cache first (one download the first time), so the parallel
# runs below only boot.
PTOP_VM_KMOD_LOAD=0 PTOP_VM_QUIET=1 tests/vm/run tests/vm/selftest/exit3.sh \
	>/dev/null 2>"$out/prepare.err"
rc=$?
if [ $rc != 3 ]; then
	echo "FAIL: first run (prepare + exit3.sh): status $rc, want 3"
	cat "$out/prepare.err"
	exit 1
fi
echo "ok   - exit3.sh: tests/vm/run exited 3 (the script's status)"

run() { # name, env..., -- script args...
	local name=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	env PTOP_VM_KMOD_LOAD=0 PTOP_VM_QUIET=1 "${envs[@]}" tests/vm/run "$@" \
		>"$out/$name.out" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
}

run pass -- tests/vm/selftest/pass.sh "$shared" "$token" &
run warn -- tests/vm/selftest/kmsg_warning.sh &
wait
run sleep PTOP_VM_TIMEOUT= PTOP_VM_CONSOLE="$out/sleep.console" -- tests/vm/selftest/sleep.sh &
run panic -- tests/vm/selftest/panic.sh &
wait
run leak -- tests/vm/selftest/kmsg_kmemleak.sh

fail=0
expect() { # name, description, test on $rc, stderr pattern
	local name=$1 what=$2 cond=$3 pat=$4 rc
	rc=$(cat "$out/$name.rc")
	if eval "$cond" && { [ -z "$pat" ] || grep -qE "$pat" "$out/$name.err"; }; then
		echo "ok   - $what (status $rc)"
	else
		echo "FAIL - $what (status $rc)"
		echo "---- stderr"; cat "$out/$name.err"
		echo "---- console (tail)"; tail -n 30 "$out/$name.out"
		fail=1
	fi
}
expect pass "pass.sh: exit 0" '[ $rc = 0 ]' ''
if [ "$(cat "$shared" 2>/dev/null)" = "$token" ]; then
	echo "ok   - pass.sh: the file the guest wrote under build/ is on the host, arguments intact"
else
	echo "FAIL - pass.sh: $shared does not hold the expected text"; fail=1
fi
rm -f "$shared"
expect warn "kmsg_warning.sh: non-zero because of the WARNING in dmesg" \
	'[ $rc != 0 ]' 'kernel problems.*dmesg'
expect leak "kmsg_kmemleak.sh: 121 because of the kmemleak and lockdep lines in dmesg" \
	'[ $rc = 121 ]' 'suspected memory leak'
expect sleep "sleep.sh with its own vm-timeout of 5 s: guest-side timeout, exit 124" \
	'[ $rc = 124 ]' 'timed out in the guest \(5s\)'
if grep -q 'ptop-vm: tasks left running or blocked after the timeout' "$out/sleep.console" &&
   grep -q 'sysrq: Show Blocked State' "$out/sleep.console"; then
	echo "ok   - sleep.sh: after the timeout the guest says where its tasks sit (stacks, sysrq w in dmesg)"
else
	echo "FAIL - sleep.sh: no task report after the timeout in the console"
	tail -n 40 "$out/sleep.console"; fail=1
fi
expect panic "panic.sh: non-zero, the guest panic is reported" \
	'[ $rc != 0 ]' 'panic'
[ $fail = 0 ] && echo "vm_harness_selftest: all checks passed"
exit $fail
