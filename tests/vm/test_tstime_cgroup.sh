#!/usr/bin/env bash
# tstime's total against the kernel's own counter with the module loaded
# (tstime's default source is then kmod), run inside the VM by
#   tests/vm/run tests/vm/test_tstime_cgroup.sh
# The host's tests/integration/tstime_cgroup.sh and tstime_cgroup_more.sh,
# unchanged: each workload in a cgroup v2 the test makes, tstime's total
# within 0.5% of its usage_usec delta minus tstime's own time, exact, at
# least wait4's; GNU time inside tstime never above it.
set -uo pipefail
cd "${PTOP_REPO:-.}" || exit 1
fail=0

if [ "${PTOP_VM_KMOD:-}" != loaded ]; then
	echo "FAIL: the module is not loaded (PTOP_VM_KMOD=${PTOP_VM_KMOD:-unset}); run through tests/vm/run"
	exit 1
fi
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup ||
	{ echo "FAIL: cannot mount cgroup2 on /sys/fs/cgroup"; exit 1; }
src=$(build/tstime --explain -q -f '' true 2>&1 | sed -n 's/^tstime: source \([a-z]*\).*/\1/p')
[ "$src" = kmod ] || { echo "FAIL: tstime's default source is '$src', not kmod"; exit 1; }
# a process costs ~0.25 s of emulated CPU here: a tenth of the workloads
export TSTIME_CG_SCALE=1
for t in tstime_cgroup tstime_cgroup_more; do
	echo "== $t (source kmod)"
	B=build bash "tests/integration/$t.sh" || fail=1
done
[ $fail = 0 ] && echo "tstime cgroup (kmod): passed" || echo "tstime cgroup (kmod): FAILED"
exit $fail
