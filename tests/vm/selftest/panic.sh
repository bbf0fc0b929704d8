#!/bin/bash
# VM harness self-test: crashes the guest kernel (sysrq c); no end marker
# arrives, so tests/vm/run must exit non-zero (122).
echo "selftest panic: triggering a kernel crash"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
sleep 30
exit 0
