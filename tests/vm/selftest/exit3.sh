#!/bin/bash
# VM harness self-test: tests/vm/run must exit with this script's status, 3.
echo "selftest exit3: exiting with 3"
exit 3
