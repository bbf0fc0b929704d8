# Sourced by test_kmod_acct.sh and test_kmod_acct_shell.sh (after
# kmod_common.sh, with W set): 200 waited children, then tsload's c*
# against their wait4 totals and this shell's c* against the folds into it
# and, when ACCT_UPPER=1, against the kernel's count of its waited
# children. ACCT_CHECK names the check.
# shellcheck shell=bash
me=$$

# the kernel's count of this shell's waited children (bash's `times`,
# second line, ms): everything folded into this shell between the two
# answers was waited before the second tsquery started: an upper bound
# that holds however long the exit paths take on a loaded host
# (`times` in this shell, not in a $(...) subshell: a fork has its own).
# Between the two answers this shell waits for nothing but the commands
# between the two `times`: the readings are turned into numbers after the
# second answer, as each $(kids_ns) is a child too (an awk of 100-300 ms
# under emulation at host load: one before the first answer, in the
# kernel's count only, and one between `times` and the second answer, in
# the c* only, moved the difference by up to 0.3 s either way)
kids_ns() { awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) {
	split($i, a, /[ms]/); n += (a[1] * 60 + a[2]) * 1e9 }; printf "%.0f\n", n }' "$1"; }
times >"$W/times0"
s=$(tsquery -t -r | tee "$W/before" | seq_of)
tsload shortlived 200 5 >"$W/children"
sleep 0.3		# RCU callbacks: the last exit paths are folded at free
times >"$W/times1"
tsquery -t -s "$s" -r >"$W/after"
k0=$(kids_ns "$W/times0")
k1=$(kids_ns "$W/times1")
python3 - "$W" "$me" "$((k1 - k0))" "$ACCT_UPPER" <<'PY'
import sys, re
w, me, kids = sys.argv[1], sys.argv[2], int(sys.argv[3])
upper = sys.argv[4] == "1"
def recs(f):
    out = []
    for l in open(f):
        if l.startswith("rec "):
            p = l.split()
            kv = dict(x.split("=") for x in p if re.match(r"^(c|fold|acct)=", x))
            out.append((p[1], p[2], int(p[7]), int(p[8]), int(kv["c"]), kv["fold"], kv["acct"], p[12]))
    return out
before = {r[1]: r for r in recs(f"{w}/before") if r[0] == "G"}
after = recs(f"{w}/after")
burned = sum(int(l.split()[3]) for l in open(f"{w}/children") if l.startswith("child "))
n = sum(1 for l in open(f"{w}/children") if l.startswith("child "))
ge = [r for r in after if r[0] == "GE"]
# by name: on a loaded host a subshell's c* (its tsquery, sed) can exceed
# half of what 200 x 5 ms children burned
tsload = [r for r in ge if r[7] == "tsload" and r[4] > burned // 2]
ok = True
def say(c, m):
    global ok
    print(("ok   - " if c else "FAIL - ") + m)
    ok &= c
say(n == 200 and len(tsload) == 1, f"200 children waited for ({n}), tsload's GROUP+EXIT found ({len(tsload)})")
if tsload:
    c = tsload[0][4]
    d = c - burned
    # more only by the exit tail after the parent's wait (a host-preempted
    # vCPU charges its stall to the exiting task); less only by the exit
    # tail of the last child or two, when it is freed after tsload died
    # (then it goes to tsload's receiver, this shell: checked below)
    say(-10_000_000 <= d <= max(2_000_000, burned // 50),
        f"tsload's c* {c} ns = sum of its children's wait4 totals {burned} ns ({d:+d} ns, {d / burned * 100:+.3f}%)")
me_after = [r for r in after if r[0] == "G" and r[1] == me]
if me_after and me in before:
    dc = me_after[0][4] - before[me][4]
    folded = sum(r[2] + r[3] + r[4] for r in ge if r[5] == me)
    d = dc - folded
    nf = sum(1 for r in ge if r[5] == me)
    # never less than the records folded in; with ACCT_UPPER=1 never more
    # than the kernel's count of the waited children, + 2 ms (`times`
    # rounds to 1 ms) + 1% (a child runs on for a moment after its
    # parent's wait, see above): test_kmod_acct_shell, a known defect
    below_kernel = dc <= kids + 2_000_000 + kids // 100
    say(0 <= d and (below_kernel or not upper),
        f"this shell's c* grew {dc} ns = T + C of the {nf} groups folded into it {folded} ns ({d:+d} ns: their exit paths after the EXIT record); "
        f"the kernel's count of its waited children {kids} ns ({dc - kids:+d} ns, {'at most that' if upper else 'bounded in test_kmod_acct_shell'})")
else:
    say(False, "this shell's GROUP record in both answers")
sys.exit(0 if ok else 1)
PY
check "$ACCT_CHECK" [ $? = 0 ]
