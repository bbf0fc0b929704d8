"""bench/run's workloads beside its sleepers (--load), like real machines:

  timers   N processes, each waiting with a long timeout in nanosleep,
           epoll_wait, poll, a timed futex or an armed timerfd (a hrtimer
           each: what made /proc/timer_list quadratic);
  pool     a thread-pool service: 4 processes of N / 4 threads, each thread
           waking every 10 ms to 2 s for 1 ms of work (most tasks active
           in every second: the module's "since N" worst case);
  threads  one process of N timer threads; ptop runs with --threads and is
           compared with `top -b -H`.

All of them by tests/helpers/ptop_timers, beside --busy busy loops
(tsload). Their targets, as root on the stock
kernel, each stock source's batch refresh costs at most 1.0 x top's (top
-H for threads), its snapshot window stays under 5 ms, and at most 1 in 8
intervals at -d 1 is inexact; with the module (VM), ptop kmod at most
1/20 of top's with the pool at 10,000 threads.
"""
import json
import os
import subprocess
import time

LOADS = ("sleepers", "timers", "pool", "threads")


class TimerLoad:
    """ptop_timers N (timers, pool, threads) + busy loops"""

    def __init__(self, b, kind, n, busy):
        exe = os.path.join(b, "tests", "helpers", "ptop_timers")
        tsload = os.path.join(b, "tests", "helpers", "tsload")
        opt = {"timers": [], "pool": ["-P", "4"], "threads": ["-T"]}[kind]
        self.procs = [subprocess.Popen([exe] + opt + [str(n)],
                                       stdout=subprocess.PIPE, text=True)]
        line = self.procs[0].stdout.readline()
        if not line.startswith("started"):
            raise SystemExit(f"ptop_timers {kind} {n}: {line!r}")
        self.procs.append(subprocess.Popen([tsload, "busy", str(busy)],
                                           stdout=subprocess.PIPE, text=True))
        self.procs[1].stdout.readline()
        time.sleep(2)

    def stop(self):
        for p in self.procs:
            p.terminate()
            p.wait()
        time.sleep(1)


def make(b, kind, n, busy, sleepers):
    """the load of --load kind: sleepers(n, busy) is bench/run's own"""
    return sleepers(n, busy) if kind == "sleepers" else \
        TimerLoad(b, kind, n, busy)


def top_argv(kind, argv):
    """top -b as the load wants it: -H (threads) for the threads load"""
    return argv[:2] + ["-H"] + argv[2:] if kind == "threads" else argv


def ptop_argv(kind, argv):
    return argv[:1] + ["--threads"] + argv[1:] if kind == "threads" else argv


def inexact_share(ptop, src, kind, intervals=8):
    """(inexact, intervals) of `ptop -b --format=json -d 1`: an interval
    with a reason (within a wider bound is not inexact)"""
    argv = ptop_argv(kind, [ptop, "-b", "--no-config", "--format=json",
                            "-d", "1", "-n", str(intervals), "-p", "1",
                            "-o", "PID", "--source=" + src])
    r = subprocess.run(argv, stdout=subprocess.PIPE, text=True,
                       stderr=subprocess.DEVNULL)
    n = bad = 0
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            n += 1
            bad += bool(json.loads(line)["inexact"])
    return (bad, n) if r.returncode == 0 and n else None


def targets(kind, where, ns, sources, res, rt, inex, ratio, fmt, say):
    """the PASS/FAIL lines of a --load other than sleepers"""
    top = "top -b -H" if kind == "threads" else "top -b"
    n = 10000 if where == "vm_kmod" else max(ns)
    if where == "vm_kmod":
        r = ratio(res, "ptop kmod -b", n)
        say(r is not None and r <= 1 / 20,
            f"ptop kmod -b, {kind} {n}: {fmt(r)} x {top} (target <= 1/20)")
        return
    for s in sources:
        if s.startswith("kmod"):
            continue
        r = ratio(res, f"ptop {s} -b", n)
        say(r is not None and r <= 1.0,
            f"ptop {s} -b, {kind} {n}: {fmt(r)} x {top} (target <= 1.0)")
        v = rt.get((s, n))
        say(v is not None and v < 5,
            f"ptop {s}, {kind} {n}: widest snapshot {fmt(v)} ms (target < 5)")
        bi = inex.get((s, n))
        say(bi is not None and bi[0] * 8 <= bi[1],
            f"ptop {s}, {kind} {n}: "
            + ("-" if bi is None else f"{bi[0]} of {bi[1]}")
            + " intervals inexact at -d 1 (target <= 1 in 8)")
