#!/usr/bin/python3
# pin_answers.py N FLAGS RELEASE: open /proc/taskstats N times, write one
# PIDS command (FLAGS: 1 = threads) to each and never read, so that every
# file keeps its answer. Prints "pinned=K first_error=NAME" (NAME: none,
# EBUSY, ENOMEM, ...), then holds the files until the file RELEASE exists.
#
# Its own memory is locked first (mlockall), so that in a memory cgroup
# at its limit the module's allocations fail rather than push the
# reader's own pages out; after an ENOMEM it closes its last 16
# files, to have room to report in that memory cgroup.
import ctypes
import errno
import os
import struct
import sys
import time

n, flags, release = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cmd = struct.pack("=IIQII", 1, flags, 0, 0, 0)
fds, err, k = [0] * n, "none", 0
libc = ctypes.CDLL(None, use_errno=True)
locked = libc.mlockall(3) == 0		# MCL_CURRENT | MCL_FUTURE
for k in range(n + 1):
    if k == n:
        break
    try:
        fd = os.open("/proc/taskstats", os.O_RDWR)
    except OSError as e:
        err = "open-" + errno.errorcode.get(e.errno, str(e.errno))
        break
    try:
        os.write(fd, cmd)
    except OSError as e:
        err = errno.errorcode.get(e.errno, str(e.errno))
        os.close(fd)
        break
    fds[k] = fd
if err == "ENOMEM":
    for i in range(max(0, k - 16), k):
        os.close(fds[i])
print("pinned=%d first_error=%s mlocked=%s" % (k, err, locked), flush=True)
while not os.path.exists(release):
    time.sleep(0.1)
