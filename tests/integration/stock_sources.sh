#!/usr/bin/env bash
# The stock-kernel sources (procfs, taskstats_nl) against this machine's
# kernel. Runs the cmocka programs that drive them:
#  - test_procfs: fixture proc tree, exact records (any user);
#  - test_src_live: as root, a workload of waited, self-reaped (50) and
#    double-fork orphan children, and a multi-threaded group whose threads
#    and leader die: exit records and c*/x* within 2% of the CPU time the
#    burners measured themselves, folding into the original ancestor,
#    procfs missing the self-reaped part, identical (pid, start_ns) in both
#    sources; as nobody, taskstats_nl must refuse with -EPERM and the live
#    checks must be reported SKIPPED, never passed.
# Exit 77 (skip) when not root: the interesting half needs CAP_NET_ADMIN.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

for t in test_procfs test_src_live; do
	if [ ! -x "$B/tests/unit/$t" ]; then
		make -s B="$B" "$B/tests/unit/$t" >/dev/null || {
			echo "FAIL: cannot build $B/tests/unit/$t"
			exit 1
		}
	fi
done

"$B/tests/unit/test_procfs" || { echo "FAIL: test_procfs"; fail=1; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: taskstats_nl checks need root (CAP_NET_ADMIN)"
	exit $((fail ? 1 : 77))
fi

out=$("$B/tests/unit/test_src_live" 2>&1)
rc=$?
echo "$out"
if [ $rc != 0 ] || grep -q 'SKIPPED\|FAILED' <<<"$out"; then
	echo "FAIL: test_src_live as root (rc $rc)"
	fail=1
fi

# unprivileged: the live checks must be skipped visibly, not passed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$B/tests/unit/test_src_live" "$tmp/"
chmod 755 "$tmp" "$tmp/test_src_live"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$tmp/test_src_live" 2>&1)
rc=$?
if [ $rc != 0 ] || ! grep -q 'SKIPPED ] test_live' <<<"$out" || grep -q FAILED <<<"$out"; then
	echo "$out"
	echo "FAIL: test_src_live as nobody must skip the live checks"
	fail=1
else
	echo "ok: as nobody, live checks skipped and taskstats_nl refused"
fi
exit $fail
