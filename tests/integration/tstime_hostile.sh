#!/usr/bin/env bash
# tstime where it cannot make a cgroup of the run's own: it falls back to
# wait4 and the per-task records with ONE short line saying why, runs the
# command, exits with its status, and its verdict says what the total may
# miss; never a crash, never a silent "exact" that cannot be.
#   - no write access to the cgroup tree (run as nobody)
#   - a read-only cgroupfs (remounted read-only in a mount namespace)
#   - a pid namespace (tstime is pid 1 there): the cgroup still works
set -uo pipefail
B=${B:-build}
T=$(realpath "$B/tstime")
WL=$(realpath "$B/tests/helpers/ptop_workload")
fail=0
ok() { echo "ok:   $*"; }
bad() { echo "FAIL: $*"; fail=1; }

if [ "$(id -u)" != 0 ]; then
	echo "FAIL: needs root (to become nobody, to remount, to unshare)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$m" ] || { echo "FAIL: no cgroup2 mount here"; exit 1; }
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

unshare -m sh -c 'mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$m" \
	"$T" --json -o "$tmp/ro.json" sh -c "$W" 2>"$tmp/ro.err"
echo $? >"$tmp/ro.rc"
check ro '!cgroup' "Read-only file system" && ok "read-only cgroupfs" || bad "read-only cgroupfs"

# self-reaped children there: wait4 misses them, the records miss their
# exit paths: inexact, with the bound
unshare -m sh -c 'mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$m" \
	"$T" --json -o "$tmp/ro2.json" sh -c "$WL selfreap 50 2 >/dev/null; exit 3" 2>"$tmp/ro2.err"
echo $? >"$tmp/ro2.rc"
check ro2 records "Read-only file system" && ok "read-only cgroupfs, self-reaped children" ||
	bad "read-only cgroupfs, self-reaped children"
grep -q '"exact":false,"verdict":"inexact: within ±' "$tmp/ro2.json" && ok "  inexact, with its bound" ||
	bad "  self-reaped children without a cgroup: $(grep -o '"verdict":"[^"]*"' "$tmp/ro2.json")"

unshare -p -f --mount-proc "$T" --json -o "$tmp/pidns.json" sh -c "$W" 2>"$tmp/pidns.err"
echo $? >"$tmp/pidns.rc"
check pidns cgroup "" && ok "a pid namespace" || bad "a pid namespace"
exit $fail
