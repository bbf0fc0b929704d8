#!/bin/bash
# VM batch self-test: leaves a task behind (its own session ends with the
# script); tests/vm/batch_guest.sh must kill it before the next test.
setsid sleep 4242 </dev/null >/dev/null 2>&1 &
bash -c 'sleep 4243 & disown' </dev/null >/dev/null 2>&1
echo "selftest batch_a_leaves: left sleep 4243 behind (and 4242 in a session of its own)"
exit 0
