#!/usr/bin/env python3
# A test_kmod_idle_irq run with the PTOP_TS_TEST_CLOCK_PAIR module
# (test_pair_log=1): each interval's error ("with it") against what the
# CPUs' clock pairs (sched_clock - time at each instant, kernel log) say
# it is: the sum over CPUs of the change of that offset, the kept try's.
#   tests/vm/diag/clock_pair_ana.py RUN.log
import re, sys
ivs, pairs = [], {}
for ln in open(sys.argv[1], errors="replace"):
    m = re.search(r"interval (\d+): .* with it ([-+]\d+\.\d+) ms", ln)
    if m:
        ivs.append((int(m.group(1)), float(m.group(2))))
    m = re.search(r"pair gen (\d+) cpu (\d+) try (\d+) off (-?\d+) wide (\d+)", ln)
    if m:
        g, c, t, off, w = map(int, m.groups())
        cur = pairs.setdefault(g, {})
        # the kept try: the narrowest (the fix), the only one (before)
        if c not in cur or w < cur[c][1]:
            cur[c] = (off, w, t)
gens = sorted(g for g in pairs if len(pairs[g]) == 2)
gens = gens[-(len(ivs) + 1):]
base = None
print("interval  err_ms  pairs_ms  widths_us(cpu0,cpu1)  tries")
for (k, err), g0, g1 in zip(ivs, gens, gens[1:]):
    d = sum(pairs[g1][c][0] - pairs[g0][c][0] for c in (0, 1)) / 1e6
    ws = ",".join(f"{pairs[g1][c][1] / 1e3:.0f}" for c in (0, 1))
    ts = ",".join(str(pairs[g1][c][2]) for c in (0, 1))
    print(f"{k:8d} {err:+7.3f} {d:+9.3f}  {ws:>20s}  {ts}")
