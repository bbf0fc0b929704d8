#!/usr/bin/python3
# answers_rec.py SECS PERIOD CGROUP OUT [FLAGS]: since-N answers of
# /proc/taskstats every PERIOD s for SECS s (FLAGS 1: thread answers),
# each between two readings of cgroup v2 directory CGROUP's usage_usec,
# appended raw to OUT as frames: b"FRAM", u32 answer length, u64 cgroup
# usage before and after (ns), u64 CLOCK_MONOTONIC before and after, the
# answer. tests/vm/diag/answers_ana.py reads them. See exits.sh.
import os, struct, sys, time
secs, period, cg, out = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
flags = int(sys.argv[5]) if len(sys.argv) > 5 else 0
def cgns():
    for l in open(cg + "/cpu.stat"):
        k, v = l.split()
        if k == "usage_usec":
            return int(v) * 1000
    return 0
fd = os.open("/proc/taskstats", os.O_RDWR)
seq = 0
o = open(out, "wb")
end = time.monotonic() + secs
nxt = time.monotonic()
while time.monotonic() < end:
    cmd = struct.pack("=IIQII", 1, flags, seq, 0, 0)
    a0 = cgns(); m0 = time.monotonic_ns()
    os.write(fd, cmd)
    buf = b""
    while True:
        b = os.read(fd, 1 << 22)
        if not b:
            break
        buf += b
    m1 = time.monotonic_ns(); a1 = cgns()
    hdr = struct.unpack_from("=HHIQQQIIII", buf, 0)
    seq = hdr[3]
    o.write(b"FRAM" + struct.pack("=IQQQQ", len(buf), a0, a1, m0, m1) + buf)
    o.flush()
    nxt += period
    time.sleep(max(0, nxt - time.monotonic()))
