#!/bin/bash
# test_kmod_exec_identity for longer: 12 s per answer kind instead of 4
# (about 2 minutes of tsquery -V under non-leader execs and a fork
# storm), to look for its CI hang of 2026-12-03 (docs/reliability.md):
#   tests/vm/run tests/vm/diag/exec_identity_long.sh
# (tests/vm/run passes no environment into the guest: hence this file)
SECS=${SECS:-12} exec bash "$(dirname "$0")/../test_kmod_exec_identity.sh"
