#!/bin/bash
# VM harness self-test: hangs; with PTOP_VM_TIMEOUT=5, tests/vm/run must
# stop it and exit 124.
echo "selftest sleep: sleeping 300 s"
sleep 300
