"""One /proc/taskstats answer, decoded, for the VM test scripts.

answer(fd, mode, since) writes the command (mode: 0 process answers, 1
thread answers; since: 0 for every task, else the seq of the reader's
last answer), reads the answer whole and returns (seq, records); each
record is the tuple of struct ptop_ts_record (kmod/uapi/ptop_taskstats.h)
in field order: 2 kind, 3 flags, 4 pid, 5 tgid, 9 nthreads, 12 state,
14 comm, 15 start_ns, 18-20 own u/s/steal, 22-24 x*, 25-27 c*.
"""
import os
import struct

HDR = "=HHIQQQIIII"
REC = "=HHHHIIIIIIIIc7s16sQQQ" + "Q" * 14
KIND_THREAD, KIND_GROUP = 1, 2
RECF_EXIT = 1


def answer(fd, mode, since):
    os.write(fd, struct.pack("=IIQII", 1, mode, since, 0, 0))
    buf = b""
    while True:
        b = os.read(fd, 1 << 22)
        if not b:
            break
        buf += b
    h = struct.unpack_from(HDR, buf, 0)
    size, seq, count, ncpu, rsz = h[1], h[3], h[6], h[7], h[8]
    off = size + ncpu * 48
    return seq, [struct.unpack_from(REC, buf, off + i * rsz) for i in range(count)]


def total(f):
    """own + x* user and system ns of a record"""
    return f[18] + f[19] + f[22] + f[23]
