#!/bin/bash
# VM harness self-test: must end with status 0.  With arguments FILE TEXT,
# writes TEXT into FILE (a path under build/: the host checks it arrived, and
# that arguments with spaces survive the trip).
echo "selftest pass: kernel $(uname -r), PTOP_VM=${PTOP_VM:-} PTOP_VM_KMOD=${PTOP_VM_KMOD:-}"
[ "${PTOP_VM:-}" = 1 ] || exit 1
if [ $# -ge 2 ]; then
	printf '%s\n' "$2" >"$1" || exit 1
	echo "selftest pass: wrote '$2' to $1"
fi
# the expected out-of-tree taint line must not fail a run
echo "<4>ptop_selftest: loading out-of-tree module taints kernel." >/dev/kmsg
exit 0
