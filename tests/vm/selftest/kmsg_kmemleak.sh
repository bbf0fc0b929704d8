#!/bin/bash
# VM harness self-test: the script passes, but the kernel log gets what the
# debug kernel's checkers print without a "WARNING:" or "BUG:" (kmemleak's
# report, lockdep switching itself off), so tests/vm/run must exit 121.
echo "<3>kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)" >/dev/kmsg
echo "<4>turning off the locking correctness validator." >/dev/kmsg
echo "selftest kmsg_kmemleak: wrote a kmemleak and a lockdep line to /dev/kmsg, exiting 0"
exit 0
