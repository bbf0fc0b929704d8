#!/usr/bin/env bash
# ptop's headline, measured: one busy loop per vCPU plus a tree that forks
# continually (tests/helpers/ptop_churn.c: waited children, self-reaped
# children, double-fork orphans, an 8-thread process, a non-leader exec),
# watched side by side by `ptop -b -d 1 -n 30` and `top -b -d 1`, the
# churn (12 s) started once ptop printed its first interval.
#
#   tests/vm/run tests/vm/test_exact_vs_top.sh [SOURCE]     (default kmod)
#
# Asserts, for ptop: every interval's rows + idle = ncpu x interval within
# 0.5% (the worst is printed), and the churn root's dead descendants (on
# their own rows while alive, then on the root's c* columns) equal what the
# kernel counted they used, within 1%: the churn runs in a cgroup of its
# own, whose cpu.stat usage_usec (minus the root's own time) is every
# descendant's run time, exit paths included (ptop_churn -c). Never less
# than what the descendants measured of themselves. The workload's older
# estimate (wait4 rusage of the waited ones, self-measurement of the
# self-reaped ones plus the waited ones' mean exit path) is printed beside
# it: that mean varied from 0.9 to 61 ms per exit between the runs of
# 2026-12-01 (what the host did to the VM), so the estimate's own error
# was unknown, and 200 self-reaped exits times 1 ms is 2% of the tree.
# For top, it records how far the sum of its %CPU column plus idle falls
# from ncpu x 100%.
#
# Not perf: under emulation its task-clock counted 5-7% less than the
# kernel's own runtime accounting (wait4 rusage) of the same processes.
#
# The VM is emulated on a host that may be busy: a vCPU stopped for tens
# of ms in the middle of the churn can still cost one interval. Up to 2
# attempts, each printed in full; the last one must pass.
# Results: build/bench/exact_vs_top.{dat,md} (bench/exact_vs_top.sh turns
# them into the committed report and plot).
set -uo pipefail
SRC=${1:-kmod}
REPO=${PTOP_REPO:-$(pwd)}
OUT=$REPO/build/bench
N=30		# intervals: the churn (CHURN_S, then its 4 s linger) from the first one on, with room
CHURN_S=12
mkdir -p "$OUT"
ncpu=$(nproc)

if [ "$SRC" = kmod ] && [ ! -e /proc/taskstats ]; then
	echo "FAIL: /proc/taskstats missing: is the module loaded? (PTOP_VM_KMOD=${PTOP_VM_KMOD:-})"
	exit 1
fi

# the churn's own cgroup: the kernel's count of what its tree used
CGROOT=/sys/fs/cgroup
mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
CG=$CGROOT/ptop_churn
rmdir $CG 2>/dev/null
mkdir $CG || { echo "FAIL: cannot make cgroup $CG"; exit 1; }

ptop_workload spin "$ncpu" &
spin=$!
trap 'kill $spin 2>/dev/null; pkill -f "ptop_workload spin" 2>/dev/null; rmdir $CG 2>/dev/null' EXIT
sleep 0.5

# attempt LABEL: one run side by side, judged; misses printed as "LABEL: ..."
attempt() {
	local label=$1 p1 p2 st
	ptop -b -d 1 -n $N --source="$SRC" \
		-o PID,PPID,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,total,COMMAND \
		>"$OUT/ptop.txt" 2>"$OUT/ptop.err" &
	p1=$!
	# top's first report is since boot: one more, dropped when parsing
	top -b -d 1 -n $((N + 1)) -w 512 >"$OUT/top.txt" 2>&1 &
	p2=$!
	# the churn from ptop's first interval on, so that ptop's baseline
	# is before the tree's first fork: at host load 30-145 ptop, top and
	# the churn started "at once" came up seconds apart (top 10 s after
	# ptop), and the tree's time outside ptop's window failed the tree
	# check (-37% to -51%) with every interval exact
	for _ in $(seq 600); do
		grep -q '^ptop ' "$OUT/ptop.txt" 2>/dev/null && break
		kill -0 $p1 2>/dev/null || break
		sleep 0.1
	done
	ptop_churn -w 0 -l 4 -c $CG $CHURN_S >"$OUT/churn.txt"
	# ptop must outlast the churn, or the tree is judged on part of it
	kill -0 $p1 2>/dev/null
	late=$?
	wait $p1
	st=$?
	wait $p2
	if [ $st != 0 ]; then
		echo "$label: ptop exited $st: $(cat "$OUT/ptop.err")"
		return 1
	fi
	if [ $late != 0 ]; then
		echo "$label: ptop's $N intervals ended before the churn did (a host this slow leaves no window to judge)"
		return 1
	fi
	judge "$label"
}

judge() {
python3 - "$OUT" "$ncpu" "$SRC" "$1" "$N" <<'EOF'
import re, sys
out, ncpu, src, label, nwant = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
churn = open(out + "/churn.txt").read()
m = re.search(r"burned_ns=(\d+) tasks=(\d+) root=(\d+) rusage_ns=(\d+) "
              r"selfreap_ns=(\d+) selfreap_tasks=(\d+) wait_overhead_ns=(\d+) "
              r"cgroup_ns=(\d+)", churn)
if not m:
    sys.exit(label + ": churn printed nothing: " + churn)
burned, ntasks, root = int(m.group(1)) / 1e9, int(m.group(2)), m.group(3)
rusage, sr_burned, sr_tasks = int(m.group(4)) / 1e9, int(m.group(5)) / 1e9, int(m.group(6))
# the self-reaped children's exit paths: as the plain waited children's
# (made the same way), wait4() rusage minus their own measurement
per_exit = int(m.group(7)) / 1e9
estimate = rusage + sr_burned + sr_tasks * per_exit
# the kernel's count: the reference
expect = int(m.group(8)) / 1e9

ptop, seen, interval = [], 0.0, None
names = ("ch-wait", "ch-ign", "ch-selfreap", "ch-middle", "ch-orphan",
         "ch-threads", "ch-exec", "exe")   # "exe": the exec'ed image, until renamed
for line in open(out + "/ptop.txt"):
    h = re.match(r"ptop .* interval ([\d.]+)s .* accounted ([\d.]+)% of ([\d.]+)%\s+(\S+)", line)
    if h:
        interval = float(h.group(1))
        ptop.append((float(h.group(2)), float(h.group(3)), h.group(4)))
        continue
    f = line.split()
    if not interval or len(f) != 13 or not f[0].isdigit():
        continue
    if f[12] in names:
        seen += float(f[11]) / 100 * interval
    elif f[0] == root:
        seen += sum(float(x) for x in f[5:8] if x != "-") / 100 * interval

top, cur = [], None
for line in open(out + "/top.txt"):
    if line.startswith("top - "):
        if cur is not None:
            top.append(cur)
        cur = {"tasks": 0.0, "idle": None}
        continue
    c = re.match(r"%Cpu\(s\):(.*)", line)
    if c and cur is not None:
        v = dict((k, float(n)) for n, k in re.findall(r"([\d.]+) (\w\w)", c.group(1)))
        cur["idle"] = (v.get("id", 0) + v.get("wa", 0) + v.get("st", 0)) * ncpu
        continue
    f = line.split()
    if cur is not None and len(f) >= 12 and f[0].isdigit():
        cur["tasks"] += float(f[8])
if cur is not None:
    top.append(cur)
top = top[1:]   # the first report is since boot

cap = 100.0 * ncpu
with open(out + "/exact_vs_top.dat", "w") as d:
    d.write("# interval ptop_accounted_pct top_accounted_pct capacity_pct\n")
    for i in range(min(len(ptop), len(top))):
        d.write(f"{i + 1} {ptop[i][0]:.2f} {top[i]['tasks'] + top[i]['idle']:.2f} {cap:.2f}\n")

worst = max(abs(a - c) / c * 100 for a, c, _ in ptop)
tworst = max(abs(t["tasks"] + t["idle"] - cap) / cap * 100 for t in top) if top else float("nan")
tmean = sum(abs(t["tasks"] + t["idle"] - cap) for t in top) / len(top) / cap * 100 if top else float("nan")
inexact = sum(1 for *_, e in ptop if e != "exact")
with open(out + "/exact_vs_top.md", "w") as md:
    md.write(f"| | intervals | worst interval off | mean off |\n|---|---|---|---|\n")
    pmean = sum(abs(a - c) for a, c, _ in ptop) / len(ptop) / cap * 100
    md.write(f"| ptop --source={src} | {len(ptop)} | {worst:.2f}% | {pmean:.3f}% |\n")
    md.write(f"| top -b -d 1 | {len(top)} | {tworst:.2f}% | {tmean:.3f}% |\n")
    md.write(f"\nchurn tree: its {ntasks} descendants used {expect:.3f} s by the kernel's "
             f"count (their cgroup's cpu.stat); ptop showed {seen:.3f} s "
             f"({(seen - expect) / expect * 100:+.2f}%) on their rows while alive, then on "
             f"the root's c*. The workload's estimate: {estimate:.3f} s "
             f"({(estimate - expect) / expect * 100:+.2f}%; kernel rusage {rusage:.3f} s of "
             f"the waited ones; {sr_tasks} self-reaped measured {sr_burned:.3f} s of "
             f"themselves, + {per_exit * 1e3:.2f} ms each for the exit path, as the plain "
             f"waited children's). They measured {burned:.3f} s of themselves (exit paths "
             f"not included).\n")
print(open(out + "/exact_vs_top.md").read())

fail = 0
if len(ptop) != nwant:
    print(f"{label}: {len(ptop)} ptop intervals, not {nwant}"); fail = 1
if worst > 0.5:
    print(f"{label}: ptop's worst interval is {worst:.2f}% off ncpu x 100% (> 0.5%)"); fail = 1
if inexact:
    print(f"{label}: {inexact} interval(s) marked inexact"); fail = 1
if abs(seen - expect) > 0.01 * expect:
    print(f"{label}: the churn tree's descendants used {expect:.3f} s, ptop showed {seen:.3f} s (> 1% off)"); fail = 1
if seen < burned:
    print(f"{label}: ptop showed {seen:.3f} s, less than the {burned:.3f} s the descendants measured of themselves"); fail = 1
print(f"ptop worst interval: {worst:.3f}% off; top worst: {tworst:.2f}% off")
sys.exit(fail)
EOF
}

for n in 1 2; do
	label=FAIL
	[ $n = 1 ] && label="attempt 1 missed"
	echo "== attempt $n"
	attempt "$label" && exit 0
done
exit 1
