#!/bin/bash
# vm-timeout: 5
# VM harness self-test: hangs; its own timeout of 5 s (the line above;
# a non-empty PTOP_VM_TIMEOUT overrides it) makes tests/vm/run stop it
# and exit 124.
echo "selftest sleep: sleeping 300 s"
sleep 300
