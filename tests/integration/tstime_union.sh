#!/usr/bin/env bash
# Without a cgroup of the run's own (--no-cgroup), tstime's total is the
# union of wait4's rusage and the records of the tasks wait4 did not reap:
# checked against a cgroup the test makes (tests/helpers/tstime_cg.sh).
#   - a fork-exec loop (wait4 sees it all, the records miss exit paths)
#     then children that reap themselves (only the records see them): the
#     union is within 10% of the test cgroup (95% here: the records miss
#     their exit paths), above both wait4 and the
#     records alone (their max, tstime's total before, was 70-80%)
#   - the same loop alone: nothing is counted twice (at most the cgroup)
set -uo pipefail
B=${B:-build}
T=$B/tstime
WL=$B/tests/helpers/ptop_workload
fail=0
ok() { echo "ok:   $*"; }
bad() { echo "FAIL: $*"; fail=1; }

if [ "$(id -u)" != 0 ]; then
	echo "FAIL: needs root to make a cgroup to compare with"
	exit 1
fi
for f in "$T" "$WL"; do
	[ -x "$f" ] || { echo "FAIL: $f missing (make all + helpers)"; exit 1; }
done
S=${TSTIME_CG_SCALE:-10}
tmp=$(mktemp -d)
. tests/helpers/tstime_cg.sh
cg_setup

# union NAME LOW: total within LOW..100% (+ slack) of the truth, at least
# wait4's and the records', from "rusage + records"
union() {
	python3 - "$tmp/$1.json" "$tmp/$1.cg" "$1" "$2" "$CG_SLACK_S" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
u0, u1, lo, hi, self_ns, _ = map(int, open(sys.argv[2]).read().split())
name, low, slack = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
t_lo = (u1 - u0 - self_ns + lo) / 1e9
t_hi = (u1 - u0 - self_ns + hi) / 1e9
tot, ru, rec = j["cpu_s"], j["rusage_s"], j["records_s"]
print(f"{name}: tstime {tot:.6f} s ({j['total_from']}, {j['verdict']}), "
      f"test cgroup minus tstime {t_lo:.6f}-{t_hi:.6f} s ({tot / t_hi * 100:.2f}%), "
      f"wait4 {ru:.6f} s ({ru / t_hi * 100:.1f}%), records {rec:.6f} s ({rec / t_hi * 100:.1f}%)")
bad = 0
if tot > t_hi * 1.005 + slack:
    print(f"FAIL: {name}: above the cgroup: counted twice"); bad = 1
if tot < t_lo * low:
    print(f"FAIL: {name}: below {low * 100:.0f}% of the cgroup"); bad = 1
if tot + 1e-6 < ru or tot + 1e-6 < rec:
    print(f"FAIL: {name}: below wait4's or the records' own sum"); bad = 1
if j["total_from"] != ("rusage + records" if name == "mixed" else "rusage"):
    print(f"FAIL: {name}: total from {j['total_from']}"); bad = 1
sys.exit(bad)
PY
}

if ! "$T" -q --source=taskstats -f '' true 2>/dev/null; then
	echo "FAIL: taskstats source unavailable as root"
	exit 1
fi
cg_run mixed --source=taskstats --no-cgroup -- sh -c \
	"for i in \$(seq $((40 * S))); do /bin/true; done; $WL selfreap $((30 * S)) 2 >/dev/null"
union mixed 0.9 && ok "fork-exec loop + self-reaped children: the union" ||
	bad "the union of wait4 and the unreaped records"

cg_run loop --source=taskstats --no-cgroup -- sh -c "for i in \$(seq $((40 * S))); do /bin/true; done"
union loop 0.995 && ok "fork-exec loop: wait4's, nothing twice" || bad "fork-exec loop"
exit $fail
