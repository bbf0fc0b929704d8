#!/bin/bash
# EXIT records of processes with a dead thread (split from test_kmod_exits:
# a known defect, tests/vm/known_defects): 300 children that each run a
# thread (it returns at once), join it, burn 2 ms and _exit(); every
# GROUP+EXIT record lies between the child's own process clock before
# _exit() (no time lost) and its wait4() total + 1 tick (no time counted
# twice). On a loaded host a few in 300 fall outside either way (the dead
# thread's time counted both linked and in x*, or missing): see
# docs/reliability.md.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
HZ_NS=4000000	# CONFIG_HZ=250 on the Debian guest kernel

# groups with a dead thread: the GROUP+EXIT total (linked threads + x*) is
# what the whole process burned; x* (HAS_X) holds the thread's part once the
# thread is released (pthread_join() can return a moment before that: then
# the thread is still counted among the linked ones)
s=$(tsquery -t | seq_of)
tsload shortlived 300 2 thread >"$W/tchildren"
tsquery -t -s "$s" -r >"$W/tinc"
early=$(( $(sed -n 's/^answer .*flags=\(0x[0-9a-f]*\).*/\1/p' "$W/tinc") & 0x80 ? 1 : 0 ))
python3 - "$W" "$HZ_NS" "$early" <<'PY'
import sys
w, tick, early = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
burned, own, wait4 = {}, {}, {}
for line in open(f"{w}/tchildren"):
    f = line.split()
    if f[0] == "child":
        own[f[1]], wait4[f[1]] = int(f[2]), int(f[3])
        burned[f[1]] = own[f[1]] if early else wait4[f[1]]
ge, gx = {}, {}
for line in open(f"{w}/tinc"):
    f = line.split()
    if f[0] == "rec" and f[1] == "GE":
        ge[f[2]] = int(f[7]) + int(f[8])
        gx[f[2]] = (int(f[6], 16) & 0x2, int(f[8]))
d = sorted(ge[p] - burned[p] for p in burned if p in ge)
bad = [x for x in d if abs(x) > tick]
# the bounds of test_kmod_exits: the child's own process clock (both
# threads) before _exit, and its wait4 total + 1 tick
below = [p for p in ge if p in own and ge[p] < own[p]]
out = [p for p in ge if p in own and ge[p] > wait4[p] + tick]
nox = [p for p in burned if p in gx and not gx[p][0]]
withx = sum(1 for p in burned if p in gx and gx[p][1] > 0)
print(f"children with a thread: {len(burned)}, GROUP+EXIT found {len(d)}, "
      f"record - burned p5 {d[len(d) // 20]} p50 {d[len(d) // 2]} p95 {d[len(d) * 19 // 20]} ns, "
      f"outside one tick {len(bad)}, below own clock {len(below)}, "
      f"above wait4 + 1 tick {len(out)}, "
      f"x* > 0 in {withx}, HAS_X missing in {len(nox)}")
for p in out[:5]:
    print(f"  pid {p}: own {own[p]} record {ge[p]} wait4 {wait4[p]} (x* {gx[p][1]})")
sys.exit(0 if len(d) == len(burned) == 300 and not below and not out and not nox
         and withx >= 150 else 1)
PY
rc=$?
check "300 children with a dead thread: GROUP+EXIT total between own clock and wait4 total, HAS_X, x* mostly filled" [ $rc = 0 ]

check_idle_state "exits_thread"
check_dmesg "exits_thread"
rm -rf "$W"
finish test_kmod_exits_thread
