#!/bin/bash
# A fork storm read by ptop --source=kmod (the module's rows + idle
# + irq must add up). 10,000 sleepers forked one after another by one
# parent: one CPU forks, the other goes idle and is woken for each child
# thousands of times a second. There the kernel's nohz idle count (in
# ktime) came out longer than the idle task's runs (in the runqueue's
# clock, the clock of every row) in every interval: the module carried
# the excess into later intervals instead of leaving it out, so each
# storm interval said `inexact: off +1.6%` to `+3.0%` (bench/precision.md,
# sleepers10000, 4 of 6 intervals; 2026-12-06 main 3353f4d: the storm's
# 8 intervals +1.68% to +2.34% of one CPU, irq 0 in each). The module
# now cuts that excess from the answer's idle (kmod/cpus.c,
# idle_busy_at()).
#
# Asserts, over the intervals in which the storm forked (more rows than
# the one before): their mean off within a quarter of the module's
# tolerance (a host that stops a vCPU moves time between neighbouring
# intervals, which the mean cancels; the excess did not cancel), and at
# least half of them within the tolerance; every interval that says
# `exact` within it. Printed: each interval's off, idle and irq.
. "$(dirname "$0")/kmod_common.sh"
require_module
[ "$(nproc)" -ge 2 ] || { echo "FAIL - needs 2 CPUs"; exit 1; }
W=$(mktemp -d)
N=${PTOP_FORK_IDLE_N:-10000}

ptop -b --no-config --format=json --source=kmod -d 1 -n 14 >"$W/j" &
p=$!
sleep 2.5
ptop_sleepers -w 0 -k 30 "$N" >"$W/sl" &
sl=$!
wait $p
kill $sl 2>/dev/null
wait $sl 2>/dev/null

out=$(python3 - "$W/j" <<'EOF'
import json, sys
ivs = [json.loads(l) for l in open(sys.argv[1])]
prev_n, storm = None, []
for d in ivs:
    n = len(d["rows"])
    forking = prev_n is not None and n > prev_n + 50
    print(f"interval off {d['off_pct']:+.3f}% tol {d['tolerance_pct']:.2f}% idle "
          f"{d['idle_pct']:.2f}% irq {d['irq_pct']} rows {n} exact {d['exact']} "
          f"{' '.join(d['inexact'])}{' (storm)' if forking else ''}")
    if d["exact"] and abs(d["off_pct"]) > d["tolerance_pct"] + 0.01:
        print(f"FALSE_EXACT {d['off_pct']}")
    if forking:
        storm.append(d)
    prev_n = n
if storm:
    tol = storm[0]["tolerance_pct"]
    mean = sum(d["off_pct"] for d in storm) / len(storm)
    within = sum(abs(d["off_pct"]) <= tol for d in storm)
    print(f"STORM n={len(storm)} mean={mean:.3f} within={within} tol={tol}")
EOF
)
echo "$out"
read -r _ n mean within tol <<<"$(grep '^STORM' <<<"$out" | tr '=' ' ' | awk '{print $1, $3, $5, $7, $9}')"
check "the storm forked in at least 3 intervals (got ${n:-0})" [ "${n:-0}" -ge 3 ]
check "no interval said exact outside its tolerance" [ -z "$(grep '^FALSE_EXACT' <<<"$out")" ]
check "the storm intervals' mean off ${mean:-?}% within a quarter of ${tol:-?}%" \
	python3 -c "import sys; sys.exit(not abs(float('${mean:-99}')) <= float('${tol:-0}') / 4)"
check "at least half of the ${n:-0} storm intervals within ${tol:-?}% (got ${within:-0})" \
	[ $(( ${within:-0} * 2 )) -ge "${n:-1}" ]
rm -rf "$W"
finish test_kmod_fork_idle
