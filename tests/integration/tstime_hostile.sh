#!/usr/bin/env bash
# tstime where it cannot make a cgroup of the run's own: it falls back to
# wait4 and the per-task records with ONE short line saying why, runs the
# command, exits with its status, and its verdict says what the total may
# miss; never a crash, never a silent "exact" that cannot be.
#   - no write access to the cgroup tree (run as nobody)
#   - a read-only cgroupfs (remounted read-only in a mount namespace)
#   - cgroup2 read-only but a cgroup v1 cpuacct hierarchy writable: the
#     total from a v1 cgroup of the run's own, within 0.5% of a v1 cgroup
#     this test makes (its cpuacct.usage delta minus tstime's own time)
#   - a pid namespace (tstime is pid 1 there): the cgroup still works
set -uo pipefail
. "$(dirname "$0")/lib.sh"
T=$(realpath "$B/tstime")
WL=$(realpath "$B/tests/helpers/ptop_workload")

need_root FAIL "to become nobody, to remount, to unshare"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$m" ] || { echo "FAIL: no cgroup2 mount here"; exit 1; }
# the v1 hierarchy with cpuacct, where there is one (hybrid machines)
m1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ { print $2; exit }' /proc/self/mounts)
# a mount namespace with every cgroup mount read-only (tests/helpers/ns_run:
# also where / is not a mount point)
NSRUN=$(cd "$(dirname "$0")/../helpers" && pwd)/ns_run
ro_all=("$NSRUN" -r "$m" ${m1:+-r "$m1"} --)

W='for i in $(seq 100); do /bin/true; done; exit 3'

# check NAME WANT_FROM WANT_LINE: status 3, the JSON, stderr lines
check() {
	python3 - "$tmp/$1.json" "$tmp/$1.err" "$(cat "$tmp/$1.rc")" "$2" "$3" <<'PY'
import json, sys
js, errf, rc, want_from, want_line = sys.argv[1:]
err = open(errf).read().splitlines()
bad = 0
if rc != "3":
    print(f"status {rc}, not the command's 3"); bad = 1
try:
    j = json.load(open(js))
except Exception as e:
    print(f"no JSON report: {e}; stderr: {err}"); sys.exit(1)
print(f"total {j['cpu_s']:.6f} s from {j['total_from']} ({j['verdict']}); stderr: {err}")
if j["total_from"] != want_from and not (want_from == "!cgroup" and j["total_from"] != "cgroup"):
    print(f"total from {j['total_from']}, not {want_from}"); bad = 1
if j["cpu_s"] + 1e-6 < j["rusage_s"]:
    print("total below wait4's rusage"); bad = 1
if want_line:
    if len(err) != 1 or not err[0].startswith("tstime: no cgroup of the run's own (") or want_line not in err[0]:
        print(f"want one line saying '{want_line}'"); bad = 1
elif err:
    print("want nothing on stderr"); bad = 1
sys.exit(bad)
PY
}

chmod 711 "$tmp"
touch "$tmp/nobody.json" && chown 65534 "$tmp/nobody.json"
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$T" --json -o "$tmp/nobody.json" sh -c "$W" 2>"$tmp/nobody.err"
echo $? >"$tmp/nobody.rc"
check nobody rusage "Permission denied" && ok "no cgroup write access" || bad "no cgroup write access"
grep -q '"verdict":"inexact: no bound' "$tmp/nobody.json" && ok "  says it has no bound" ||
	bad "  as nobody with wait4 alone it cannot say exact"

"${ro_all[@]}" \
	"$T" --json -o "$tmp/ro.json" sh -c "$W" 2>"$tmp/ro.err"
echo $? >"$tmp/ro.rc"
check ro '!cgroup' "Read-only file system" && ok "read-only cgroupfs" || bad "read-only cgroupfs"

# self-reaped children there: wait4 misses them, the records miss their
# exit paths: wait4 plus their records, inexact, with the bound
"${ro_all[@]}" \
	"$T" --json -o "$tmp/ro2.json" sh -c "$WL selfreap 50 2 >/dev/null; exit 3" 2>"$tmp/ro2.err"
echo $? >"$tmp/ro2.rc"
check ro2 "rusage + records" "Read-only file system" && ok "read-only cgroupfs, self-reaped children" ||
	bad "read-only cgroupfs, self-reaped children"
grep -q '"exact":false,"verdict":"inexact: within ±' "$tmp/ro2.json" && ok "  inexact, with its bound" ||
	bad "  self-reaped children without a cgroup: $(grep -o '"verdict":"[^"]*"' "$tmp/ro2.json")"

# cgroup2 read-only, v1 cpuacct writable: the run's v1 cgroup, checked
# against one this test makes (slack as tests/helpers/tstime_cg.sh's)
if [ -n "$m1" ]; then
	c1=$m1/ptop-test-$$
	mkdir "$c1" || { echo "FAIL: cannot make $c1"; exit 1; }
	# tstime's own process as the kernel counts it (cg_runner.py), as
	# tests/helpers/tstime_cg.sh does
	"$NSRUN" -r "$m" -- python3 tests/helpers/cg_runner.py "$c1" "$tmp/v1.cg" -- \
		"$T" --json -o "$tmp/v1.json" sh -c "$WL selfreap 100 2 >/dev/null; exit 3" 2>"$tmp/v1.err"
	echo $? >"$tmp/v1.rc"
	rmdir "$c1"
	python3 - "$tmp/v1.json" "$tmp/v1.cg" "$(cat "$tmp/v1.err")" "$(cat "$tmp/v1.rc")" <<'PY' && ok "cgroup2 read-only: the total from a cgroup v1 of the run's own" || bad "cgroup v1"
import json, sys
j = json.load(open(sys.argv[1]))
u0, u1, lo, hi, self_ns, _ = map(int, open(sys.argv[2]).read().split())
truth = (u1 - u0 - self_ns + hi) / 1e9
print(f"total {j['cpu_s']:.6f} s from {j['total_from']} ({j['verdict']}), v1 test cgroup minus tstime's process {truth:.6f} s; stderr: {sys.argv[3]!r}")
assert sys.argv[4] == "3", "status"
assert j["total_from"] == "cgroup v1" and j["exact"], j["verdict"]
assert abs(j["cpu_s"] - truth) <= truth * 0.005 + 0.004, "off the v1 counter"
assert sys.argv[3].startswith("tstime: no cgroup2 of the run's own (") and "Read-only" in sys.argv[3] \
	and "\n" not in sys.argv[3], "want one line"
PY
else
	echo "note: no cgroup v1 cpuacct hierarchy here: its fallback not tried"
fi

"$NSRUN" -p -- "$T" --json -o "$tmp/pidns.json" sh -c "$W" 2>"$tmp/pidns.err"
echo $? >"$tmp/pidns.rc"
check pidns cgroup "" && ok "a pid namespace" || bad "a pid namespace"
exit $fail
