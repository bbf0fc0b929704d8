#!/usr/bin/env bash
# vm-timeout: 900
# Time put on the wrong side of a pass instant by the records of tasks
# that exit during the pass (docs/reliability.md, "Cause 2: pairs"):
# neighbouring intervals off by the same amount in opposite directions,
# always with exits in them. Under host load the window between a pass's
# instant and its walk is stretched now and then (a stopped vCPU); the
# test build of `make vm-pass-pairs` (KCFLAGS=-DPTOP_TS_TEST_PASS_WINDOW,
# loaded with PTOP_VM_KO) sleeps test_pass_delay_ms after every instant,
# so that threads and groups exit, are released and freed in that window
# in every pass. With the plain module (no such parameter) the script
# runs the same workload without the window and says so.
#
# Workload: test_exact_vs_top's (one busy loop per vCPU, ptop_churn:
# waited, self-reaped and orphaned children, an 8-thread process, a
# non-leader exec), watched by `ptop -b --source=kmod -d 0.5 -n N`.
# Each interval is judged by the module's stated tolerance (rows + idle
# + irq within 0.5% of ncpu x interval, ptop's own headline); a pair is
# two neighbouring intervals both outside it in opposite directions.
# Fails on any interval outside the tolerance (pairs counted apart).
#   PTOP_PAIRS_DELAY_MS (default 40), PTOP_PAIRS_N (intervals, default 30),
#   PTOP_PAIRS_DUMP=1 (ptop's blocks of the off intervals and neighbours)
set -uo pipefail
REPO=${PTOP_REPO:-$(pwd)}
OUT=$REPO/build/pass_pairs
mkdir -p "$OUT"
N=${PTOP_PAIRS_N:-30}
DELAY=${PTOP_PAIRS_DELAY_MS:-40}
KNOB=/sys/module/ptop_taskstats/parameters/test_pass_delay_ms
ncpu=$(nproc)

[ -e /proc/taskstats ] || { echo "FAIL: /proc/taskstats missing"; exit 1; }
for b in ptop ptop_workload ptop_churn; do
	command -v $b >/dev/null || { echo "FAIL: $b not built (make all and the helpers: make vm-pass-pairs)"; exit 1; }
done
if [ -w $KNOB ]; then
	echo "$DELAY" >$KNOB
	echo "test build: every pass sleeps $DELAY ms after its instant"
else
	DELAY=0
	echo "plain module: no window (only what the host does)"
fi

ptop_workload spin "$ncpu" &
spin=$!
trap 'kill $spin 2>/dev/null; pkill -P $spin 2>/dev/null; [ -w $KNOB ] && echo 0 >$KNOB' EXIT
sleep 0.5

ptop -b -d 0.5 -n "$N" --source=kmod -o PID,PPID,user,sys,xuser,xsys,cuser,csys,total,COMMAND \
	>"$OUT/ptop.txt" 2>"$OUT/ptop.err" &
p1=$!
for _ in $(seq 600); do
	grep -q '^ptop ' "$OUT/ptop.txt" 2>/dev/null && break
	kill -0 $p1 2>/dev/null || break
	sleep 0.1
done
# the churn for most of ptop's intervals (its 1 s linger after)
ptop_churn -w 0 -l 1 $((N / 2 - 4)) >"$OUT/churn.txt"
kill -0 $p1 2>/dev/null
late=$?
wait $p1
st=$?
[ $st = 0 ] || { echo "FAIL: ptop exited $st: $(cat "$OUT/ptop.err")"; exit 1; }
[ $late = 0 ] || echo "note: ptop's intervals ended before the churn did"

python3 - "$OUT/ptop.txt" "$N" "$DELAY" "$ncpu" "${PTOP_PAIRS_DUMP:-0}" <<'EOF'
import re, sys
path, nwant, delay, ncpu = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
dump = sys.argv[5] == "1"
iv = []
for line in open(path):
    h = re.match(r"ptop .* interval ([\d.]+)s .* accounted ([\d.]+)% of ([\d.]+)%\s+(.*)", line)
    if h:
        acc, cap = float(h.group(2)), float(h.group(3))
        iv.append((float(h.group(1)), (acc - cap) / cap * 100, h.group(4).strip()))
off = [i for i, (_, e, _) in enumerate(iv) if abs(e) > 0.5]
pairs = [i for i in range(len(iv) - 1)
         if i in off and i + 1 in off and iv[i][1] * iv[i + 1][1] < 0]
for i, (d, e, v) in enumerate(iv):
    mark = " <- off" if i in off else ""
    print(f"interval {i + 1:2d} {d:.3f}s off {e:+.3f}% ({e / 100 * d * ncpu * 1000:+.1f} ms) {v}{mark}")
# PTOP_PAIRS_DUMP=1: ptop's blocks of the off intervals and their
# neighbours (rows as ptop printed them), to see which rows carry a pair
if dump:
    blocks, cur = [], None
    for line in open(path):
        if line.startswith("ptop "):
            cur = [line.rstrip()]
            blocks.append(cur)
        elif cur is not None and line.strip():
            cur.append(line.rstrip())
    blocks = blocks[-len(iv):] if iv else []
    want = sorted({j for i in off for j in (i - 1, i, i + 1) if 0 <= j < len(blocks)})
    for j in want:
        print(f"--- interval {j + 1}")
        print("\n".join(blocks[j][:40]))
worst = max((abs(e) for _, e, _ in iv), default=0)
print(f"pass_pairs delay_ms={delay} intervals={len(iv)} off={len(off)} pairs={len(pairs)} worst={worst:.3f}%")
fail = 0
if len(iv) != nwant:
    print(f"FAIL: {len(iv)} intervals, not {nwant}"); fail = 1
if off:
    print(f"FAIL: {len(off)} interval(s) outside 0.5%, {len(pairs)} pair(s) of neighbours off in opposite directions"); fail = 1
sys.exit(fail)
EOF
