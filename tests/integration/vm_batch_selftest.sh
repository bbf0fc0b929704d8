#!/bin/bash
# Self-test of tests/vm/batch, which `make check` runs the VM tests with:
# several scripts share a boot, each gets the status it earned, and a
# guest that dies in one script fails that one only (a new boot for the
# rest).  Three boots, the module neither built nor loaded:
#   batch_append.sh    0 only if its vm-append and vm-smp lines reached its
#                      boot (a group of its own)
#   batch_a_leaves.sh  0, leaves a task behind
#   batch_b_clean.sh   0 only if that task was killed after the previous test
#   exit3.sh           3
#   kmsg_warning.sh    121 (a WARNING in dmesg during the script)
#   panic.sh           122 (the guest crashes: no end line)
#   pass.sh            0, in a second boot
#   sleep.sh           124 (its own vm-timeout of 5 s)
set -u
cd "$(dirname -- "$0")/../.." || exit 1
out=$(mktemp -d "${TMPDIR:-/tmp}/vm-batch-selftest.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT
s=tests/vm/selftest
B=$out PTOP_VM_KMOD_LOAD=0 tests/vm/batch $s/batch_append.sh $s/batch_a_leaves.sh $s/batch_b_clean.sh \
	$s/exit3.sh $s/kmsg_warning.sh $s/panic.sh $s/pass.sh $s/sleep.sh >"$out/batch.out" 2>&1
rc=$?
fail=0
status_of() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$out/logs/vm-tests/times.tsv"; }
expect() { # name status what
	local got
	got=$(status_of "$1")
	if [ "$got" = "$2" ]; then echo "ok   - $1: status $got ($3)"
	else echo "FAIL - $1: status ${got:-none}, want $2 ($3)"; fail=1; fi
}
expect batch_append 0 "its vm-append and vm-smp reached its boot"
expect batch_a_leaves 0 "passes, leaves a task"
expect batch_b_clean 0 "the task left by the previous test was killed"
expect exit3 3 "the script's own status"
expect kmsg_warning 121 "a WARNING in dmesg during the script"
expect panic 122 "the guest crashed in it"
expect pass 0 "run in a new boot after the crash"
expect sleep 124 "its own vm-timeout of 5 s"
if [ $rc != 0 ]; then echo "ok   - the batch exits non-zero ($rc)"
else echo "FAIL - the batch exits 0 with failed tests"; fail=1; fi
if grep -q 'FAILED (status 122)' "$out/batch.out" && [ -s "$out/logs/vm-tests/pass.log" ]; then
	echo "ok   - a second boot ran the tests after the crash"
else echo "FAIL - no second boot after the crash"; fail=1; fi
if grep -q 'WARNING: ptop selftest' "$out/logs/failures.txt" 2>/dev/null ||
   grep -q 'kernel problems' "$out/logs/vm-tests/kmsg_warning.log"; then
	echo "ok   - kmsg_warning's log names the kernel problem"
else echo "FAIL - kmsg_warning's log does not name the kernel problem"; fail=1; fi
[ $fail = 0 ] || { echo "---- batch output"; cat "$out/batch.out"; }
[ $fail = 0 ] && echo "vm_batch_selftest: all checks passed"
exit $fail
