#!/bin/bash
# VM batch self-test: runs after batch_a_leaves.sh in the same guest; the
# task that script left in its session must be gone.
if pgrep -f 'sleep 4243' >/dev/null; then
	echo "FAIL - the previous test's leftover (sleep 4243) still runs"
	exit 1
fi
echo "selftest batch_b_clean: the previous test's leftover is gone"
exit 0
