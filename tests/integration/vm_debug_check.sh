#!/bin/bash
# tests/vm/debug-check's report of a failed test (no VM: a stand-in for
# tests/vm/run writes a console and fails). With PTOP_VM_QUIET the run's
# own output has only tests/vm/run's lines; the report must still show the
# test's FAIL lines and the last 30 lines of its script's output, and keep
# the whole console at the path it prints. A passing test keeps none.
set -u
cd "$(dirname -- "$0")/../.." || exit 1
w=$(mktemp -d "${TMPDIR:-/tmp}/vm-debug-check.XXXXXX") || exit 1
trap 'rm -rf "$w"' EXIT
fail=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# the stand-in: "--kernel debug tests/vm/T"; T's name says pass or fail
cat >"$w/run" <<'EOF'
#!/bin/bash
t=$3
{
	echo "SeaBIOS boot lines"
	echo "ptop-vm: loaded build/kmod/ptop_taskstats.ko"
	echo "ptop-vm: running $t on 6.1.192-ptop-debug, timeout 1800s"
	for i in $(seq 1 60); do echo "ok   - check $i"; done
	case $t in
	*smoke*) echo "test_kmod_smoke: all checks passed"; st=0;;
	*)	echo "FAIL - answer 3: pad 0xfefefefe on cpu 2"
		for i in $(seq 61 100); do echo "ok   - check $i"; done
		echo "the script's last line"; st=1;;
	esac
	echo "@@PTOP-VM-END status=$st@@"
	echo "@@PTOP-VM-DMESG-BEGIN@@"
	echo "[    0.000000] Linux version 6.1.192-ptop-debug"
	echo "@@PTOP-VM-DMESG-END@@"
} >"$PTOP_VM_CONSOLE"
echo "vm-run: kernel 6.1.192-ptop-debug, prepare 0.1s, VM 1.0s, script status $st" >&2
exit $st
EOF
chmod +x "$w/run"

B=$w/b PTOP_DEBUG_CHECK_BUILD=0 PTOP_DEBUG_CHECK_RUN=$w/run \
	tests/vm/debug-check test_kmod_cpu_pad.sh test_kmod_smoke.sh >"$w/out" 2>&1
rc=$?
sed 's/^/    # /' "$w/out"
[ $rc = 1 ] && ok "exit 1 with a failed test" || bad "exit $rc, want 1"
grep -q '^PASS: test_kmod_smoke.sh' "$w/out" && ok "the passing test is PASS" ||
	bad "no PASS line for test_kmod_smoke.sh"
c=$w/b/logs/vm-debug/test_kmod_cpu_pad.console.log
grep -q "^FAIL: test_kmod_cpu_pad.sh (exit 1, .*console $c)" "$w/out" &&
	ok "the FAIL line names the kept console" || bad "no FAIL line with the console's path"
[ -s "$c" ] && grep -q 'check 100' "$c" && ok "the whole console is kept" ||
	bad "console $c not kept whole"
! [ -e "$w/b/logs/vm-debug/test_kmod_smoke.console.log" ] &&
	ok "a passing test keeps no console" || bad "a passing test's console kept"
grep -q '^    FAIL - answer 3: pad 0xfefefefe on cpu 2$' "$w/out" &&
	ok "the test's FAIL line is printed" || bad "the test's FAIL line not printed"
n=$(grep -c '^    | ' "$w/out")
[ "$n" = 30 ] && ok "30 lines of the script's output printed" || bad "$n lines of output printed, want 30"
grep '^    | ' "$w/out" | tail -n 1 | grep -q "the script's last line$" &&
	grep '^    | ' "$w/out" | head -n 1 | grep -q 'check 72$' &&
	ok "they are its last 30 (check 72 .. its last line)" || bad "not the script's last 30 lines"
! grep -q '^    | .*@@PTOP-VM' "$w/out" && ok "no end marker or dmesg among them" ||
	bad "markers among the script's lines"
[ $fail = 0 ] && echo "vm_debug_check: all checks passed"
exit $fail
