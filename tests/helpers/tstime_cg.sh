# Sourced by tests/integration/tstime_cgroup*.sh: run tstime inside a
# cgroup v2 the TEST makes, and compare tstime's total with that cgroup's
# own counter (cpu.stat usage_usec delta) minus tstime's own CPU time.
#
# Why this is the truth: the test's cgroup holds tstime and everything it
# starts, and a cgroup's usage_usec includes its descendants' (tstime
# makes its own below it), so every task of the run is in it, whatever
# tstime does, including a task that moves itself to another cgroup below
# the test's. tstime's own time (own_cpu_s, its RUSAGE_SELF) is the rest.
#
# Needs: root, a writable cgroup2 mount; the caller sets B, T (tstime),
# tmp (a scratch dir) and defines ok/bad. cg_setup FAILS (exit 1) with the
# reason when it cannot make a cgroup: the comparison is never skipped.

# tstime's own time here is the kernel's count of its process (its zombie's
# schedstat, by tests/helpers/cg_runner.py), not what tstime says: that
# includes its exit path, after its report. What it ran before it moved
# into the test's cgroup is known between two reads (before and after the
# move): tstime's total must be within 0.5% + slack of that range. Slack:
# the counters' usec (<= 3 us), and a zombie's last slice if it was not
# counted after 60 ms of the same reading (a machine at load 80 did that
# once, for 3.5 ms, with 20 ms): 1 ms.
CG_SLACK_S=0.001

cg_setup() {
	local m
	if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
		CG_ROOT=/sys/fs/cgroup
	else
		# hybrid hierarchy: the v2 one is mounted elsewhere
		m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
		[ -n "$m" ] || { echo "FAIL: no cgroup2 mount here (/sys/fs/cgroup is $(stat -fc %T /sys/fs/cgroup)): cannot compare with the kernel's counter"; exit 1; }
		CG_ROOT=$m
	fi
	CG=$CG_ROOT/ptop-test-$$
	mkdir "$CG" 2>"$tmp/cg.err" ||
		{ echo "FAIL: cannot make a test cgroup in $CG_ROOT: $(cat "$tmp/cg.err")"; exit 1; }
	trap 'cg_cleanup' EXIT
}

cg_cleanup() {
	local d
	# a task just killed may keep one populated a moment
	for d in "$CG"/*/ "$CG"; do
		for _ in $(seq 50); do
			[ -d "$d" ] || break
			rmdir "$d" 2>/dev/null && break
			sleep 0.02
		done
	done
	rm -rf "$tmp"
}

cg_usage() { awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat"; }

# cg_run NAME TSTIME_ARGS... -- COMMAND...: tstime --json inside the
# test's cgroup; leaves $tmp/NAME.json, $tmp/NAME.cg (cg_runner.py's line)
cg_run() {
	local name=$1
	shift
	python3 tests/helpers/cg_runner.py "$CG" "$tmp/$name.cg" -- \
		"$T" --json -o "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}

# cg_check NAME [exact|inexact]: tstime's total within 0.5% + slack of
# the test cgroup's delta minus tstime's own time, and the verdict
cg_check() {
	python3 - "$tmp/$1.json" "$tmp/$1.cg" "$1" "${2:-exact}" "$CG_SLACK_S" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
u0, u1, lo, hi, self_ns, _ = map(int, open(sys.argv[2]).read().split())
name, want, slack = sys.argv[3], sys.argv[4], float(sys.argv[5])
own = (self_ns - lo) / 1e9
# the truth is between these two, by what the mover ran around its move
t_lo = (u1 - u0 - self_ns + lo) / 1e9
t_hi = (u1 - u0 - self_ns + hi) / 1e9
truth = t_hi
tot = j["cpu_s"]
lim = truth * 0.005 + slack
print(f"{name}: tstime {tot:.6f} s ({j['total_from']}, {j['verdict']}), "
      f"test cgroup minus tstime's process {t_lo:.6f}-{t_hi:.6f} s ({tot / truth * 100:.2f}% of the upper), "
      f"wait4 {j['rusage_s']:.6f} s, records {j['records_s']}, tstime's process {own:.6f} s "
      f"(it says {j['own_cpu_s']:.6f} s before its report)")
bad = 0
if tot < t_lo - lim or tot > t_hi + lim:
    print(f"FAIL: {name}: {tot:.6f} s off {t_lo:.6f}-{t_hi:.6f} s by more than {lim:.6f} s"); bad = 1
if tot + 1e-6 < j["rusage_s"]:
    print(f"FAIL: {name}: total below wait4's rusage {j['rusage_s']}"); bad = 1
if want == "exact" and not j["exact"]:
    print(f"FAIL: {name}: not exact: {j['verdict']}"); bad = 1
if want == "inexact" and (j["exact"] or "within ±" not in j["verdict"]):
    print(f"FAIL: {name}: should say inexact with its bound: {j['verdict']}"); bad = 1
sys.exit(bad)
EOF
}
