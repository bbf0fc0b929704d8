#!/bin/bash
# vm-timeout: 900
# A reaper racing a releasing ancestor: ptop_ts_new_reaper() (kmod/acct_exit.c)
# mirrors the kernel's find_new_reaper() under RCU only, without
# tasklist_lock, so an ancestor it walks to can be released meanwhile,
# its task_pid() NULL (checked since e59e56d; the task_struct, its
# signal_struct and the struct pid stay valid under RCU). The race is a
# few instructions wide: this script needs the test build of `make
# vm-reaper-race` (KCFLAGS=-DPTOP_TS_TEST_REAPER_WINDOW, built on the
# host, loaded with PTOP_VM_KO), which waits a second in
# ptop_ts_new_reaper() between reading a task's parent and that parent's
# pid when the task is named ptop-reaperwin. Not a test_*.sh: the plain
# module has no window.
# Each round: a child subreaper S (this script's python), S -> A -> B;
# B (named ptop-reaperwin) is SIGKILLed, and while its exit probe waits
# in the window, A is SIGKILLed and reaped by S (released: task_pid(A)
# NULL). Rounds with an events listener (its REPARENT report walks the
# ancestors too, before the accounting's), and without. Checks: each
# round's A released while B was still inside its exit (not yet a
# zombie), the window taken (the test build's dmesg line), the kernel
# clean (no oops: the NULL pid dereferenced before e59e56d), the
# module's counters back to 0.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
ROUNDS=${ROUNDS:-8}

chain_rounds() {	# chain_rounds N TAG: N rounds, "round TAG inside|late" lines
	python3 - "$1" "$2" <<'PY'
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)		# PR_SET_CHILD_SUBREAPER
n, tag = int(sys.argv[1]), sys.argv[2]
def state(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
for i in range(n):
    r, w = os.pipe()
    a = os.fork()
    if a == 0:
        b = os.fork()
        if b == 0:
            libc.prctl(15, b"ptop-reaperwin", 0, 0, 0)	# PR_SET_NAME
            os.write(w, b"%d\n" % os.getpid())
            while True:
                signal.pause()
        while True:
            signal.pause()
    os.close(w)
    b = int(os.fdopen(r).readline())
    os.kill(b, signal.SIGKILL)
    time.sleep(0.2)			# B is in its window (a second)
    os.kill(a, signal.SIGKILL)
    os.waitpid(a, 0)			# A released
    sb = state(b)			# B: still inside its exit, or a zombie
    print(f"round {tag} {i} b={b} a={a} b_after_a_reaped={sb}", flush=True)
    # B is now S's child (A's exit gave it to the subreaper)
    while True:
        try:
            os.waitpid(b, 0)
            break
        except ChildProcessError:
            time.sleep(0.05)	# not reparented to S yet
PY
}

python3 "$PTOP_REPO/tests/vm/nl_events.py" listen 600 >"$W/ev" 2>"$W/ready" &
lp=$!
wait_line "$W/ready" ready 60 || bad "events listener ready"
chain_rounds "$ROUNDS" listen >"$W/rounds" 2>&1
kill $lp; wait $lp 2>/dev/null
chain_rounds $((ROUNDS / 2)) quiet >>"$W/rounds" 2>&1
cat "$W/rounds"
nr=$(grep -c '^round ' "$W/rounds")
inside=$(grep -c 'b_after_a_reaped=[RDS]' "$W/rounds")
win=$(dmesg | grep -c 'test build: reaper window')
check "all $((ROUNDS + ROUNDS / 2)) rounds ran ($nr)" [ "$nr" = $((ROUNDS + ROUNDS / 2)) ]
check "the test build's window was taken ($win times; plain module: 0)" [ "$win" -ge "$nr" ]
check "A released while B was inside its exit in at least half the rounds ($inside of $nr)" [ $((inside * 2)) -ge "$nr" ]
grep -c REPARENT "$W/ev" >/dev/null; echo "events received: $(grep -c '^event' "$W/ev")"
check_dmesg "reaper race"
check_idle_state "reaper race"
finish reaper_race
