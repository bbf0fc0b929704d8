#!/bin/bash
# vm-timeout: 600
# A thread's live row and its group's x* in one thread answer
# (docs/reliability.md, "Between a group's exit report and its EXIT
# record"). The walk decides a thread's row (live until its EXIT record,
# or gone past exit_notify()) before the group's sum and own x*: a thread
# that finished its exit and was released in between was on its row and
# in x* (its tail entry counts once released), counted twice in ptop's
# process row (the rows' own time plus x*). The group's sum and x* now
# count a thread the walk gave a live row as live (record.c,
# ptop_ts_gone_walked_live()).
#
# The window is a few us wide without help: this script needs the test
# build of `make vm-report-window` (KCFLAGS=-DPTOP_TS_TEST_EXIT_WINDOW
# -DPTOP_TS_TEST_PASS_WINDOW, loaded with PTOP_VM_KO): a thread named
# ptop-thrwin that exits runs on, busy, for test_thread_ms before its
# EXIT record, and a walk that gave it a live row waits test_thread_ms +
# 100 ms before the group's sum, so that it is released by then. Not a
# test_*.sh: the plain module has no window. In `make check` as
# vm-window-check.
#
# Each round: this process starts a thread named ptop-thrwin that burns
# 60 ms and exits (a 300 ms window); full thread answers are taken until
# one has its live row and took the walk's wait (so the thread was
# exiting then). In that answer the group's x* must not have grown by
# the thread's time, and the next answers must show its EXIT record.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
MS=/sys/module/ptop_taskstats/parameters/test_thread_ms
[ -w "$MS" ] || { bad "the test build is loaded ($MS)"; finish thread_window; }
ROUNDS=${ROUNDS:-4}

PYTHONPATH="$(dirname "$0")" python3 - "$MS" "$ROUNDS" >"$W/rounds" 2>&1 <<'PY'
import ctypes, os, sys, threading, time
from ts_answer import answer, total
libc = ctypes.CDLL(None, use_errno=True)
ms_param, rounds = sys.argv[1], int(sys.argv[2])
me = os.getpid()
full = os.open("/proc/taskstats", os.O_RDWR)
since = os.open("/proc/taskstats", os.O_RDWR)
seq, _ = answer(since, 1, 0)

def worker(tid_box, go):
    libc.prctl(15, b"ptop-thrwin", 0, 0, 0)     # PR_SET_NAME: this thread
    tid_box.append(threading.get_native_id())
    go.wait()
    end = time.thread_time() + 0.06
    while time.thread_time() < end:
        pass

for rnd in range(rounds):
    box, go = [], threading.Event()
    th = threading.Thread(target=worker, args=(box, go))
    th.start()
    while not box:
        time.sleep(0.001)
    tid = box[0]
    _, recs = answer(full, 1, 0)
    x_before = [f[22] + f[23] for f in recs if f[2] == 2 and f[5] == me][0]
    open(ms_param, "w").write("300\n")
    go.set()
    row = x_at_row = None
    t_end = time.time() + 20
    while time.time() < t_end and row is None:
        t0 = time.monotonic()
        _, recs = answer(full, 1, 0)
        took = time.monotonic() - t0
        rows = [f for f in recs if f[2] == 1 and f[4] == tid and not f[3] & 1]
        g = [f for f in recs if f[2] == 2 and f[5] == me]
        # the walk waited after its row (>= 400 ms): it was exiting then
        if rows and g and took >= 0.35:
            row, x_at_row = rows[0], g[0][22] + g[0][23] - x_before
    th.join()
    open(ms_param, "w").write("0\n")
    exit_seen, t_end = False, time.time() + 10
    while time.time() < t_end and not exit_seen:
        seq, recs = answer(since, 1, seq)
        exit_seen = any(f[2] == 1 and f[4] == tid and f[3] & 1 for f in recs)
        time.sleep(0.05)
    rt = (row[18] + row[19]) if row else -1
    print(f"round {rnd} tid={tid} row={int(row is not None)} row_ms={rt / 1e6:.3f} "
          f"x_ms={(x_at_row if x_at_row is not None else -1) / 1e6:.3f} "
          f"exit={int(exit_seen)}", flush=True)
PY
cat "$W/rounds"
nr=$(grep -c '^round ' "$W/rounds")
check "all $ROUNDS rounds ran ($nr)" [ "$nr" = "$ROUNDS" ]
check "the exiting thread had a live row in a full answer, in each round" \
	[ "$(grep -c ' row=1 ' "$W/rounds")" = "$ROUNDS" ]
windowed() { dmesg | grep -q 'test build: thread window for'; }
check "the walk waited past its window (dmesg: thread window)" windowed
# x_ms: the growth of this process's x* from before the thread's exit to
# the answer with its live row (it burned 60 ms; no other thread died)
check "its group's x* did not have it while its row was live (x* growth < 30 ms)" \
	awk '/^round / { split($0, a, " x_ms="); if (a[2] + 0 >= 30 || a[2] + 0 < 0) bad = 1 } END { exit bad }' "$W/rounds"
check "its THREAD EXIT record came after, in each round" \
	[ "$(grep -c ' exit=1' "$W/rounds")" = "$ROUNDS" ]
check_dmesg "thread window"
check_idle_state "thread window"
rm -rf "$W"
finish thread_window
