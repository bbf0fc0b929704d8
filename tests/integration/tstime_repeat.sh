#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tstime --repeat / --warmup on a command of known cost (the workload
# helper's burner: one waited child that burns 60 ms of CPU and reports
# what it burned). Never an absolute time: what tstime says about itself.
#  - the command ran exactly warmup + N times (the workload's own lines),
#    N runs are in the statistics;
#  - per field: min <= median <= max, min <= mean <= max, stddev >= 0, and
#    the statistics are those of the runs' values (recomputed here);
#  - each run's cpu_s covers what that run's burner burned (the burner's
#    own CLOCK_PROCESS_CPUTIME_ID), within 2%;
#  - the text report has the same runs and fields;
#  - a failing run ends the series with its status, bad counts are refused
#    before anything runs.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
need_bins "$T" "$WL"

N=5 W=2
"$T" -q -r $N --warmup $W --json -o "$tmp/r.json" "$WL" normal 60 >"$tmp/wl.out"; rc=$?
[ $rc = 0 ] && ok "tstime -r $N --warmup $W --json: exit 0" || bad "tstime -r: exit $rc"
lines=$(grep -c '^burned_ns=' "$tmp/wl.out")
[ "$lines" = $((N + W)) ] && ok "the command ran $lines times ($W warmup + $N)" ||
	bad "the command ran $lines times, want $((N + W))"
python3 - "$tmp/r.json" "$tmp/wl.out" $N $W <<'EOF' && ok "JSON: $N runs, every field's min <= median <= max, mean in range, stats = the values', cpu_s >= burned" || bad "JSON statistics"
import json, math, statistics, sys
j = json.load(open(sys.argv[1]))
n, w = int(sys.argv[3]), int(sys.argv[4])
assert j["runs"] == n and j["requested_runs"] == n and j["warmup"] == w, j
assert j["exit_status"] == 0 and j["command"][1:] == ["normal", "60"], j
st = j["stats"]
want = {"real_s", "user_s", "sys_s", "steal_s", "cpu_s", "cpu_pct", "max_rss_kb",
        "processes", "threads", "minor_faults", "major_faults", "voluntary_ctxsw",
        "involuntary_ctxsw", "fs_inputs", "fs_outputs"}
assert set(st) == want, set(st) ^ want
assert st["steal_s"] is None  # not measured on this kernel's sources
measured = 0
for k, s in st.items():
    if s is None:
        continue
    measured += 1
    v = s["values"]
    assert len(v) == n, (k, v)
    tol = 1e-6 * max(1.0, max(abs(x) for x in v))
    assert s["min"] <= s["median"] <= s["max"], (k, s)
    assert s["min"] - tol <= s["mean"] <= s["max"] + tol, (k, s)
    assert s["stddev"] >= 0, (k, s)
    assert abs(s["min"] - min(v)) <= tol and abs(s["max"] - max(v)) <= tol, (k, s)
    assert abs(s["median"] - statistics.median(v)) <= tol, (k, s)
    assert abs(s["mean"] - statistics.fmean(v)) <= tol, (k, s)
    assert abs(s["stddev"] - statistics.stdev(v)) <= max(tol, 1e-6 * s["stddev"]), (k, s)
assert measured >= 12, measured
# the measured runs are the last n of the workload's runs
burned = [int(l.split()[0].split("=")[1]) / 1e9 for l in open(sys.argv[2])
          if l.startswith("burned_ns=")][w:]
cpu = st["cpu_s"]["values"]
for c, b in zip(cpu, burned):
    assert c >= b * 0.98, (c, b)
    assert c <= b * 1.02 + 0.02, (c, b)   # plus the workload's parent
for r, u, s_ in zip(st["real_s"]["values"], st["user_s"]["values"], st["sys_s"]["values"]):
    assert r > 0 and u >= 0 and s_ >= 0
assert st["processes"]["min"] >= 2  # the parent and its burner
EOF

# text: the same runs and fields
"$T" -q -r 3 --warmup 1 "$WL" normal 20 2>"$tmp/r.txt" >/dev/null; rc=$?
head -1 "$tmp/r.txt" | grep -q '^3 runs (1 warmup) of: .*ptop_workload normal 20$' &&
	ok "text: '$(head -1 "$tmp/r.txt")'" || bad "text header: $(head -1 "$tmp/r.txt")"
grep -Eq '^ +min +mean +median +max +stddev$' "$tmp/r.txt" && ok "text: min mean median max stddev columns" ||
	bad "text: no statistics header: $(cat "$tmp/r.txt")"
python3 - "$tmp/r.txt" <<'EOF' && ok "text: every measured row has min <= median <= max, min <= mean <= max" || bad "text rows"
import sys
rows = 0
for line in open(sys.argv[1]).read().splitlines()[3:]:
    parts = line.rsplit(None, 5)
    if line.endswith("not measured"):
        continue
    mn, mean, med, mx, sd = map(float, parts[1:])
    assert mn <= med <= mx and mn <= mean <= mx and sd >= 0, line
    rows += 1
assert rows >= 12, rows
EOF

# a failing run ends the series: run 3 of 5 exits 3
cnt=$tmp/count
fail_at3='n=$(cat '"$cnt"' 2>/dev/null || echo 0); n=$((n + 1)); echo $n >'"$cnt"'; [ $n -lt 3 ] || exit 3'
"$T" -r 5 --json -o "$tmp/f.json" sh -c "$fail_at3" 2>"$tmp/f.err"; rc=$?
[ $rc = 3 ] && ok "a failing run: exit 3 (its status)" || bad "failing run: exit $rc"
[ "$(cat "$cnt")" = 3 ] && ok "no run after the failing one" || bad "runs after the failure: $(cat "$cnt")"
grep -q 'measured run 3 of 5 exited with status 3; 2 measured runs before it' "$tmp/f.err" &&
	ok "warning: $(grep 'run 3' "$tmp/f.err")" || bad "failing run warning: $(cat "$tmp/f.err")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["runs"]==2 and j["requested_runs"]==5 and len(j["stats"]["real_s"]["values"])==2, j' \
	"$tmp/f.json" && ok "statistics of the 2 runs before it" || bad "statistics after a failed run: $(cat "$tmp/f.json")"

# bad input: refused, exit 125, the command never runs
for args in "-r 0" "-r -1" "-r abc" "-r 1x" "-r 99999999999999999999" "-r 1000001" \
	"--warmup 2" "-r 2 --warmup -1" "-r 2 -f %e" "-r 2 -p" "-r 2 -v" "-r 2 --tree" "-p --json" "-f %e -v"; do
	rm -f "$tmp/ran"
	# shellcheck disable=SC2086
	"$T" $args touch "$tmp/ran" >/dev/null 2>"$tmp/e"; rc=$?
	if [ $rc = 125 ] && [ ! -e "$tmp/ran" ] && [ "$(wc -l <"$tmp/e")" = 1 ] && grep -q 'tstime' "$tmp/e"; then
		ok "tstime $args: exit 125, not run: $(cat "$tmp/e")"
	else
		bad "tstime $args: exit $rc, ran=$([ -e "$tmp/ran" ] && echo yes || echo no), '$(cat "$tmp/e")'"
	fi
done
"$T" -q -r 1 true 2>"$tmp/one"; rc=$?
[ $rc = 0 ] && grep -q '^1 run (0 warmup)' "$tmp/one" && ok "-r 1: one run, stddev 0" || bad "-r 1: $rc $(cat "$tmp/one")"

finish tstime_repeat
