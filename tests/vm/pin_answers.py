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
#
# All N files are opened before the first write: at the memcg limit only
# the module's allocations (which fail with ENOMEM) may meet it. An
# open() there allocates a struct file without __GFP_RETRY_MAYFAIL, so
# the kernel's memcg OOM killer takes the reader instead (seen for 2 of
# 16 memory.max values 4 KiB apart when opens and writes alternated,
# whatever the module did).
import ctypes
import errno
import os
import struct
import sys
import time

n, flags, release = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cmd = struct.pack("=IIQII", 1, flags, 0, 0, 0)
fds, err, k = [], "none", 0
libc = ctypes.CDLL(None, use_errno=True)
locked = libc.mlockall(3) == 0		# MCL_CURRENT | MCL_FUTURE
try:
    for i in range(n):
        fds.append(os.open("/proc/taskstats", os.O_RDWR))
except OSError as e:
    err = "open-" + errno.errorcode.get(e.errno, str(e.errno))
if err == "none":
    for k in range(n + 1):
        if k == n:
            break
        try:
            os.write(fds[k], cmd)
        except OSError as e:
            err = errno.errorcode.get(e.errno, str(e.errno))
            break
    if err == "ENOMEM":
        for i in range(max(0, k - 16), k):
            os.close(fds[i])
print("pinned=%d first_error=%s mlocked=%s" % (k, err, locked), flush=True)
while not os.path.exists(release):
    time.sleep(0.1)
