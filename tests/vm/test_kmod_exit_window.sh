#!/bin/bash
# A group that dies while a pass is under way is in that answer exactly
# once: live (its EXIT record comes after the pass began, so the next
# answer has it), never in neither, never twice. Checked against the
# kernel's own count: a churn tree runs in a cgroup of its own (ptop_churn:
# waited, self-reaped, orphaned, threaded, exec'ing children; and, one
# after the other, self-reaped children that burn 300 ms each), and each
# full answer (tsquery -C: a fresh open, the walk visits every group) is
# taken between two readings of the cgroup's cpu.stat usage_usec, right
# before and right after the pass. The tree's total in the answer (every
# live group under the tree's root by accounting parent: own + x* + c*,
# the root included) can then not be less than the first reading (what
# the tree used before the pass began is in the answer, on a live row or
# in a live ancestor's c*) and not more than the second, give or take
# 100 ms (a running task's time since its last tick is in the answer
# before the cgroup has it; a double-counted 300 ms child is still seen).
# 2,000 sleepers started first have the lower pids, so each walk reaches
# the tree's newest children last, after the tens of ms in which some of
# them die. Before the fix a group past exit_notify() when the walk reached
# it, or already reaped, was in neither: 11 of 40 answers were short, by
# up to 2.58 s (2026-12-01, 6.1, host load 15 to 76).
#
#   tests/vm/run tests/vm/test_kmod_exit_window.sh      (PTOP_XWIN_PASSES=40)
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
PASSES=${PTOP_XWIN_PASSES:-40}
CGROOT=/sys/fs/cgroup
mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
CG=$CGROOT/ptop_xwin
rmdir $CG 2>/dev/null
mkdir $CG || bad "cgroup $CG"

start_sleepers 2000 "$W/sl"

# the tree's root: a shell that joins the cgroup, then starts the churn
# and, one after the other, self-reaping children that burn 300 ms each
# (a child that dies unseen takes 300 ms out of the answer: more than the
# cgroup's growth between its reading and the pass's instant)
(
	echo $BASHPID >$CG/cgroup.procs
	ptop_churn 600 >/dev/null 2>&1 &
	while :; do ptop_workload selfreap 3 300 >/dev/null; done
) &
root=$!
sleep 1
for i in $(seq 1 "$PASSES"); do
	tsquery -r -C $CG >"$W/pass.$i" 2>&1
done
kill $root 2>/dev/null
pkill -f 'ptop_churn 600' 2>/dev/null
pkill -f 'ptop_workload selfreap' 2>/dev/null
wait $root 2>/dev/null

python3 - "$W" "$PASSES" "$root" >"$W/judge" <<'EOF'
import sys
w, passes, root = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
short = 0
over = 0
margin = []
for i in range(1, passes + 1):
    use, groups = [], {}
    for line in open(f"{w}/pass.{i}"):
        f = line.split()
        if f and f[0] == "cgroup":
            use = [int(f[1].split("=")[1]), int(f[2].split("=")[1])]
        elif f and f[0] == "rec" and f[1] == "G":
            tgid = int(f[3])
            c = int(f[-3].split("=")[1])
            acct = int(f[-1].split("=")[1])
            groups[tgid] = (acct, int(f[7]) + int(f[8]) + c, f[5])
    if len(use) != 2 or root not in groups:
        print(f"pass {i}: no answer or no churn root ({len(use)} readings)")
        short += 1
        continue

    def under_root(t):
        for _ in range(64):
            if t == root:
                return True
            if t not in groups:
                return False
            t = groups[t][0]
        return False
    tree = sum(v[1] for t, v in groups.items() if under_root(t))
    # groups that died during the pass, live in it from their EXIT record
    late = sum(1 for t, v in groups.items() if v[2] == "X" and under_root(t))
    # usage_usec is whole us: 1 us per CPU of rounding
    if tree + 2000 < use[0]:
        short += 1
        print(f"pass {i}: tree {tree} ns in the answer < {use[0]} ns used before the pass "
              f"(short by {(use[0] - tree) / 1e6:.2f} ms)")
    if tree > use[1] + 100_000_000:
        over += 1
        print(f"pass {i}: tree {tree} ns in the answer > {use[1]} ns used after the pass "
              f"+ 100 ms (over by {(tree - use[1]) / 1e6:.2f} ms)")
    margin.append((tree - use[0]) / 1e6)
    print(f"pass {i}: tree - before {(tree - use[0]) / 1e6:.2f} ms, after - tree "
          f"{(use[1] - tree) / 1e6:.2f} ms, {late} dead during the pass")
margin.sort()
print(f"passes={passes} short={short} over={over} margin_ms min={margin[0]:.2f} "
      f"median={margin[len(margin) // 2]:.2f}" if margin else
      f"passes={passes} short={short} over={over}")
EOF
grep -E '^pass [0-9]+: (tree [0-9]|no)' "$W/judge" | head -20
head -5 "$W/judge"
tail -1 "$W/judge"
short=$(sed -n 's/.* short=\([0-9]*\).*/\1/p' "$W/judge")
over=$(sed -n 's/.* over=\([0-9]*\).*/\1/p' "$W/judge")
check "no answer misses time the churn tree used before its pass (${short:-?} of $PASSES short)" \
	[ "${short:-1}" = 0 ]
check "no answer has more than the tree used by the pass's end (${over:-?} of $PASSES over)" \
	[ "${over:-1}" = 0 ]
# the answers of the passes that missed, for a look afterwards
keep=$PTOP_REPO/build/exit_window/$(date +%H%M%S).$$
for i in $(sed -n 's/^pass \([0-9]*\): tree [0-9].*/\1/p' "$W/judge" | sort -u); do
	mkdir -p "$keep"
	cp "$W/pass.$i" "$keep/"
done
[ -d "$keep" ] && echo "the answers that missed: $keep"
kill $sl 2>/dev/null
wait 2>/dev/null
rmdir $CG 2>/dev/null
rm -rf "$W"
check_dmesg "exit window"
finish test_kmod_exit_window
