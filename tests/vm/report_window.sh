#!/bin/bash
# vm-timeout: 600
# A dying group read between its exit report and its EXIT record
# (docs/reliability.md, "A dying group read between its exit report and
# its EXIT record"). The last thread of a group reports it dead under
# siglock (its totals: the EXIT record's), runs on in its exit path, and
# pushes the EXIT record a moment later; a pass whose instant falls in
# between has the group live (its record comes after the pass began).
# The walk once read the group's threads on past the report:
# that live record stood above the EXIT record that followed (the
# group's total fell), and the same run was folded into the receiver's
# c* too (counted twice). Seen as test_kmod_exec_exit's falls on a loaded
# host (1 to 53 ms). The walk now answers the report's totals.
#
# Also the late record of such a group (live in a pass from its EXIT
# record, pushed after the pass's instant, before its walk): what it
# leaves out of the report's total as run after the instant (post_t0)
# was read at the push, so the reporter's run between report and push
# came off a total that did not have it (-d), and the next answer's EXIT
# record gave it back (+d): a pair of intervals.
#
# The windows are a few us wide without help: this script needs the
# test build of `make vm-report-window` (KCFLAGS=-DPTOP_TS_TEST_EXIT_WINDOW
# -DPTOP_TS_TEST_PASS_WINDOW, built on the host, loaded with PTOP_VM_KO),
# whose exit probe runs a task named ptop-repwin on, busy, for
# test_report_ms between the report and the EXIT record, and whose
# passes sleep test_pass_delay_ms after their instant. Not a test_*.sh:
# the plain module has no window. In `make check` as vm-window-check.
#
# Each round: a child named ptop-repwin burns some CPU, pauses and is
# killed with a 400 ms window; full answers (process and thread) are
# taken back to back while it is in the window, and a "since N" thread
# reader takes its EXIT records. Odd rounds: only the "since N" reader,
# each pass sleeping 150 ms after its instant, and the child released at
# its exit_notify() (SIGCHLD ignored), so that the EXIT record comes
# within a pass's sleep and the walk after it cannot see the child: the
# pass has it live from its EXIT record (late). No live record of the child (group, or
# its thread's row) may stand above its EXIT record (1 ms of slack), and
# its parent's c* must take the window's run (folded as the exit path it
# is) with the EXIT record's total.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
MS=/sys/module/ptop_taskstats/parameters/test_report_ms
[ -w "$MS" ] || { bad "the test build is loaded ($MS)"; finish report_window; }
WINDOW_MS=${PTOP_REPORT_WINDOW_MS:-400}
ROUNDS=${ROUNDS:-6}

DELAY=/sys/module/ptop_taskstats/parameters/test_pass_delay_ms
[ -w "$DELAY" ] || { bad "the test build has the pass window too ($DELAY)"; finish report_window; }
PYTHONPATH="$(dirname "$0")" python3 - "$MS" "$WINDOW_MS" "$ROUNDS" "$DELAY" >"$W/rounds" 2>&1 <<'PY'
import ctypes, os, signal, subprocess, sys, time
from ts_answer import answer, total
libc = ctypes.CDLL(None, use_errno=True)
ms_param, window_ms, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
delay_param = sys.argv[4]
def group(recs, tgid, kind=2):
    for f in recs:
        if f[2] == kind and f[4] == tgid and f[5] == tgid:
            return f
    return None

cstar = lambda f: f[25] + f[26]           # cutime_ns + cstime_ns

def burn(secs):
    end = time.process_time() + secs
    while time.process_time() < end:
        pass

def dmesg_has(s):
    return s in subprocess.run(["dmesg"], capture_output=True, text=True).stdout

since = os.open("/proc/taskstats", os.O_RDWR)
full = {m: os.open("/proc/taskstats", os.O_RDWR) for m in (0, 1)}
me = os.getpid()
seq, recs = answer(since, 1, 0)
for rnd in range(rounds):
    odd = rnd % 2
    signal.signal(signal.SIGCHLD, signal.SIG_IGN if odd else signal.SIG_DFL)
    r, w = os.pipe()
    c = os.fork()
    if c == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        libc.prctl(15, b"ptop-repwin", 0, 0, 0)     # PR_SET_NAME
        burn(0.05)
        os.write(w, b"x")
        while True:
            signal.pause()
    os.close(w)
    os.read(r, 1)
    os.close(r)
    seq, recs = answer(since, 1, seq)
    me_before = group(recs, me)
    open(ms_param, "w").write(f"{window_ms}\n")
    # odd rounds: every pass sleeps 60 ms after its instant, so that the
    # EXIT record is pushed between a "since N" pass's instant and its
    # walk: the group is then live in it from its EXIT record (late)
    # (the parent ignores SIGCHLD: the child is released at its
    # exit_notify(), which the walk cannot see past); no full answers
    # then, so that every pass is a "since N" one with its window
    odd = rnd % 2
    open(delay_param, "w").write("150\n" if odd else "0\n")
    os.kill(c, signal.SIGKILL)
    live, rows, exit_rec, exit_row = [], [], None, None
    reaped, t_end = False, time.time() + 30
    while time.time() < t_end and (exit_rec is None or not reaped):
        for m in (() if odd else (0, 1)):
            _, frecs = answer(full[m], m, 0)
            f = group(frecs, c)
            if f is not None and not f[3] & 1:
                live.append((m, total(f), f[12].decode(errors="replace"), f[9]))
            t = group(frecs, c, 1)
            if m and t is not None and not t[3] & 1 and f is not None and f[9] == 0:
                rows.append(total(t))
        seq, recs = answer(since, 1, seq)
        f = group(recs, c)
        if f is not None and f[3] & 1:
            exit_rec = f
        elif f is not None:
            live.append((2, total(f), f[12].decode(errors="replace"), f[9]))
        t = group(recs, c, 1)
        if t is not None and t[3] & 1:
            exit_row = t
        elif t is not None and f is not None and f[9] == 0:
            rows.append(total(t))
        if odd:
            reaped = exit_rec is not None
        elif not reaped and os.waitpid(c, os.WNOHANG)[0] == c:
            reaped = True
    open(ms_param, "w").write("0\n")
    open(delay_param, "w").write("0\n")
    if not reaped:
        os.waitpid(c, 0)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    # the parent's c* once the child is freed: its window folded too
    time.sleep(0.2)
    seq, recs = answer(since, 1, seq)
    me_after = group(recs, me)
    inwin = dmesg_has(f"report window for {c} ends")
    ex = total(exit_rec) if exit_rec else -1
    dying = [l for l in live if l[3] == 0]      # threads 0: reported
    above = max((l[1] - ex for l in live), default=0)
    # reported (threads 0): the report's total, whatever the pass; the
    # child is paused when killed, so its total at any instant after the
    # kill is the report's within its few us of kill path (slack: 20 ms
    # for a stopped vCPU). late: live from its EXIT record (state X)
    off = max((abs(l[1] - ex) for l in dying), default=0)
    late = sum(1 for l in dying if l[2] == "X")
    late_off = max((abs(l[1] - ex) for l in dying if l[2] == "X"), default=0)
    exr = total(exit_row) if exit_row else -1
    row_above = max((v - exr for v in rows), default=0)
    grew = cstar(me_after) - cstar(me_before) if me_before and me_after else -1
    print(f"round {rnd} pid={c} window={int(inwin)} exit_ms={ex / 1e6:.3f} "
          f"live={len(live)} live_reported={len(dying)} late={late} late_off_ms={late_off / 1e6:.3f} off_ms={off / 1e6:.3f} "
          f"max_live_ms={max((l[1] for l in live), default=0) / 1e6:.3f} "
          f"above_ms={above / 1e6:.3f} rows={len(rows)} row_exit_ms={exr / 1e6:.3f} "
          f"row_above_ms={row_above / 1e6:.3f} cstar_ms={grew / 1e6:.3f}", flush=True)
PY
cat "$W/rounds"
nr=$(grep -c '^round ' "$W/rounds")
check "all $ROUNDS rounds ran ($nr)" [ "$nr" = "$ROUNDS" ]
check "every child went through the window (dmesg)" \
	[ "$(grep -c 'window=1 ' "$W/rounds")" = "$ROUNDS" ]
check "the reported group was read live inside the window, in each round" \
	awk '/^round / { split($0, a, "live_reported="); split(a[2], b, " "); if (b[1] + 0 < 1) bad = 1 } END { exit bad }' "$W/rounds"
check "the EXIT record pushed during a pass's window: live from it (late) in some round" \
	awk '/^round / { split($0, a, " late="); n += a[2] } END { exit !(n > 0) }' "$W/rounds"
check "its late records have the report's total (20 ms slack)" \
	awk '/^round / { split($0, a, " late_off_ms="); if (a[2] + 0 > 20) bad = 1 } END { exit bad }' "$W/rounds"
check "every reported record of the child has the report's total (20 ms slack)" \
	awk '/^round / { split($0, a, " off_ms="); if (a[2] + 0 > 20) bad = 1 } END { exit bad }' "$W/rounds"
check "an EXIT record for each child" \
	awk '/^round / { split($0, a, " exit_ms="); if (a[2] + 0 <= 0) bad = 1 } END { exit bad }' "$W/rounds"
check "no live record above the EXIT record that follows (1 ms slack)" \
	awk '/^round / { split($0, a, " above_ms="); if (a[2] + 0 > 1) bad = 1 } END { exit bad }' "$W/rounds"
check "its thread row, read in the window, in each round, with a THREAD EXIT record" \
	awk '/^round / { split($0, a, " rows="); split($0, b, "row_exit_ms="); if (a[2] + 0 < 1 || b[2] + 0 <= 0) bad = 1 } END { exit bad }' "$W/rounds"
check "no live thread row above its THREAD EXIT record (1 ms slack)" \
	awk '/^round / { split($0, a, "row_above_ms="); if (a[2] + 0 > 1) bad = 1 } END { exit bad }' "$W/rounds"
# the parent's c*: the EXIT record's total plus the window's run (the
# exit path, folded as it runs), not less
check "the parent's c* took the child's total and its window ($WINDOW_MS ms)" \
	awk -v w="$WINDOW_MS" '/^round / { split($0, a, " exit_ms="); split($0, c, "cstar_ms=");
		if (c[2] + 0 < a[2] + 0.8 * w) bad = 1 } END { exit bad }' "$W/rounds"
check_dmesg "report window"
check_idle_state "report window"
rm -rf "$W"
finish report_window
