#!/usr/bin/env python3
# cg_runner.py CGROUP OUT -- PROGRAM ARGS...: run PROGRAM as a process of
# CGROUP (a cgroup v2 or v1 directory) and write to OUT, from the kernel's
# own counters, "u0 u1 pre_lo pre_hi self_ns status":
#   u0, u1   the cgroup's CPU usage before PROGRAM starts and after it was
#            reaped (ns: v2 cpu.stat usage_usec, v1 cpuacct.usage)
#   pre_lo, pre_hi  what PROGRAM's process had run right before and right
#            after it moved into CGROUP (/proc/self/schedstat after a yield):
#            what it ran outside CGROUP is between the two (~0.1 ms here,
#            ms under an emulated CPU)
#   self_ns  what PROGRAM's process ran in all, read from its zombie's
#            /proc/PID/schedstat once final (its exit path included; the
#            same for 60 ms)
# So u1 - u0 - (self_ns - pre) is what everything PROGRAM started ran in
# CGROUP, pre between pre_lo and pre_hi: a truth for a tool like tstime,
# whatever the tool says of its own time. Exits with PROGRAM's status
# (128 + N after signal N).
import os
import sys
import time


def usage(cg):
    if os.path.exists(cg + "/cpu.stat"):
        for line in open(cg + "/cpu.stat"):
            k, v = line.split()
            if k == "usage_usec":
                return int(v) * 1000
    return int(open(cg + "/cpuacct.usage").read())


def schedstat(pid):
    return int(open(f"/proc/{pid}/schedstat").read().split()[0])


def main():
    cg, out = sys.argv[1], sys.argv[2]
    argv = sys.argv[4:] if sys.argv[3] == "--" else sys.argv[3:]
    r, w = os.pipe()
    u0 = usage(cg)
    pid = os.fork()
    if pid == 0:
        os.close(r)
        # a schedule brings the runtime in schedstat up to date
        os.sched_yield()
        lo = schedstat("self")
        with open(cg + "/cgroup.procs", "w") as f:
            f.write("0\n")
        os.sched_yield()
        hi = schedstat("self")
        os.write(w, f"{lo} {hi}".encode())
        os.close(w)
        os.execvp(argv[0], argv)
    os.close(w)
    pre = (os.read(r, 64) or b"0 0").decode()
    os.close(r)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    # the zombie's last slice is counted when it schedules out, which a
    # loaded machine may delay: read until three reads 30 ms apart agree
    last, same = schedstat(pid), 0
    for _ in range(200):
        time.sleep(0.03)
        now = schedstat(pid)
        same = same + 1 if now == last else 0
        last = now
        if same == 2:
            break
    _, st = os.waitpid(pid, 0)
    u1 = usage(cg)
    code = os.waitstatus_to_exitcode(st)
    code = 128 - code if code < 0 else code
    with open(out, "w") as f:
        f.write(f"{u0} {u1} {pre} {last} {code}\n")
    sys.exit(code)


main()
