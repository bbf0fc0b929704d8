#!/bin/bash
# The accounting-parent hierarchy against the kernel's own numbers:
#  - 200 waited children: the parent's final c* (its GROUP+EXIT record)
#    equals the sum of the children's wait4() rusage totals (the kernel's
#    precise runtime, exit path included: the module folds a group at its
#    exit and the reporting thread's remaining exit path when it is freed),
#    never less, more only by the few us a child still runs after its
#    parent's wait (ms when the host preempts a TCG vCPU there);
#  - this shell's c* grows by the T + C of the groups folded into it
#    (folded_into) plus their exit paths after their EXIT records (folded
#    when each is freed), never less (never more than the kernel's count
#    of the shell's waited children: test_kmod_acct_shell, a known defect);
#  - orphans (double fork, reparented to init) and self-reaped children
#    (SIGCHLD ignored) are folded where they came from, not into init.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
ACCT_UPPER=0
ACCT_CHECK="waited children: c* = the kernel's wait4 totals; folds add up"
. "$(dirname "$0")/acct_waited.sh"

# orphans and self-reaped children: folded where they came from
s=$(tsquery -t | seq_of)
ptop_churn 2 >"$W/churn"
root=$(sed -n 's/.*root=\([0-9]*\).*/\1/p' "$W/churn")
sleep 0.3
tsquery -t -s "$s" -r >"$W/churn_recs"
python3 - "$W" "$root" "$me" <<'PY'
import sys, re
w, root, me = sys.argv[1:]
ge = {}
for l in open(f"{w}/churn_recs"):
    if l.startswith("rec GE"):
        p = l.split()
        kv = dict(x.split("=") for x in p if re.match(r"^(c|fold|acct)=", x))
        ge.setdefault(p[12], []).append((p[2], p[4], kv["fold"]))
ok = True
def say(c, m):
    global ok
    print(("ok   - " if c else "FAIL - ") + m)
    ok &= c
orph = ge.get("ch-orphan", [])
say(len(orph) > 0 and all(f == root for _, pp, f in orph),
    f"{len(orph)} orphans (real parent {sorted({pp for _, pp, _ in orph})}) folded into ch-root {root}")
sr = ge.get("ch-selfreap", [])
ign = [p for p, _, _ in ge.get("ch-ign", [])]
say(len(sr) > 0 and len(ign) == 1 and all(f == ign[0] for _, _, f in sr),
    f"{len(sr)} self-reaped children folded into ch-ign {ign}")
say([f for _, _, f in ge.get("ch-root", [])] == [me], f"ch-root folded into this shell {me}")
sys.exit(0 if ok else 1)
PY
check "orphans and self-reaped children are folded where they came from" [ $? = 0 ]
check "no fold was lost (acct_unfolded_ns $(state acct_unfolded_ns))" [ "$(state acct_unfolded_ns)" = 0 ]
echo "acct_groups $(state acct_groups) acct_dead $(state acct_dead) acct_folds $(state acct_folds) acct_late_ns $(state acct_late_ns)"
check_idle_state "acct"
check_dmesg "acct"
rm -rf "$W"
finish test_kmod_acct
