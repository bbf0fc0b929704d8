#!/usr/bin/env bash
# tstime's total against the kernel's own counter (tests/helpers/tstime_cg.sh):
# each run inside a cgroup v2 this test makes, tstime's total must be
# within 0.5% of that cgroup's cpu.stat usage_usec delta minus tstime's own
# CPU time, say "exact", and be at least wait4's rusage of the command.
#   - a fork-exec loop of /bin/true (a stock kernel's taskstats records
#     miss ~0.1 ms of exit path per exit: tstime used to say exact at 79%)
#   - 300 children that reap themselves (SIGCHLD ignored): time(1) and
#     wait4 miss them
#   - orphans (double fork), reaped by tstime as child subreaper
# And GNU time inside tstime, same run: tstime's total >= GNU time's.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

need_root FAIL "to make a cgroup to compare with"
need_bins "$T" "$WL"
# fewer processes where each costs far more (the VM's emulated CPUs)
S=${TSTIME_CG_SCALE:-10}
tmp=$(mktemp -d)
. tests/helpers/tstime_cg.sh
cg_setup

cg_run loop -- sh -c "for i in \$(seq $((40 * S))); do /bin/true; done"
cg_check loop exact && ok "fork-exec loop of /bin/true" || bad "fork-exec loop"

cg_run selfreap --tree -- "$WL" selfreap $((30 * S)) 2
cg_check selfreap exact && ok "children that reap themselves" || bad "self-reaped children"
python3 - "$tmp/selfreap.json" <<'PY' && ok "--tree: the rows plus the exit-path line make the total" || bad "--tree breakdown"
import json, sys
j = json.load(open(sys.argv[1]))
rows = sum(c["cpu_s"] for c in j["tree"])
# each row and exit_paths_s is rounded to the microsecond
if abs(rows + j["exit_paths_s"] - j["cpu_s"]) > 1e-6 * (len(j["tree"]) + 2):
    print(f"rows {rows} + exit paths {j['exit_paths_s']} != total {j['cpu_s']}"); sys.exit(1)
if j["exit_paths_s"] <= 0 and j["source"] == "taskstats":
    print("no exit-path line on a stock kernel's records"); sys.exit(1)
PY

cg_run orphan -- "$WL" orphan 4 100
cg_check orphan exact && ok "orphans (double fork)" || bad "orphans"

# GNU time inside tstime: the same run, so tstime's total includes it
if [ -x /usr/bin/time ]; then
	cg_run gnu -- /usr/bin/time -f '%U %S' -o "$tmp/gnu.txt" \
		sh -c "for i in \$(seq $((20 * S))); do /bin/true; done; $WL selfreap $((5 * S)) 2"
	cg_check gnu exact || bad "GNU time's run"
	python3 - "$tmp/gnu.json" "$tmp/gnu.txt" <<'PY' && ok "total >= GNU time's (same run)" || bad "total below GNU time's"
import json, sys
j = json.load(open(sys.argv[1]))
u, s = map(float, open(sys.argv[2]).read().split()[-2:])
print(f"tstime {j['cpu_s']:.6f} s, GNU time {u + s:.2f} s")
# GNU time rounds each of %U %S to 0.01 s
sys.exit(0 if j["cpu_s"] + 0.01 >= u + s else 1)
PY
else
	bad "/usr/bin/time (GNU time) is not installed: the comparison cannot run"
fi
exit $fail
