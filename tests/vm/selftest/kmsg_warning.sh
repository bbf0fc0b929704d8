#!/bin/bash
# VM harness self-test: the script passes, but the kernel log gets a
# "WARNING:" line, so tests/vm/run must exit non-zero.
echo "<4>WARNING: ptop selftest" >/dev/kmsg
echo "selftest kmsg_warning: wrote a WARNING to /dev/kmsg, exiting 0"
exit 0
