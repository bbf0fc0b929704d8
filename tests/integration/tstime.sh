#!/usr/bin/env bash
# tstime end to end on this machine's kernel, as root (stock kernel: the
# taskstats source; the module is tested in tests/vm/).
#
# Exactness: a workload with a known CPU cost (tests/helpers/ptop_workload):
# a waited child, a parent that ignores SIGCHLD with children that reap
# themselves, and double-forked orphans that burn after their parent
# exited. In ONE run of it, nested, four measurements:
#   tstime --source=taskstats --tree  >  /usr/bin/time  >  perf stat  >  workload
# - tstime's CPU time of the workload's processes (its --tree rows) must be
#   within 2% of what the burners measured themselves, and within 2% of
#   perf's task-clock (perf inherits its counters over fork, so it sees the
#   whole tree too);
# - GNU time (wait4 rusage) must visibly miss the self-reaped children and
#   the orphans (they were not its children's to wait for): printed, and
#   asserted to miss at least half of them.
# Then the plain `tstime --json WORKLOAD`: its total within 2% of the
# burned amount; `tstime --source=rusage` (wait4 + child subreaper) must
# miss the self-reaped part (printed).
#
# perf is a hard requirement: if `perf stat -e task-clock` cannot count
# here, this test FAILS (make check installs linux-perf); it never passes
# with the comparison silently left out.
#
# Then: exit statuses, signal forwarding, the JSON schema, every -f
# directive, -o / -a, -p, -v, stdout left clean, task_delayacct untouched
# where the kernel does not need it (6.18 fills ns runtimes without it).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

need_root SKIP "taskstats exit listener needs CAP_NET_ADMIN"
need_bins "$T" "$WL"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
delayacct0=$(cat /proc/sys/kernel/task_delayacct)

# the workload: 200 ms waited + 10 x 100 ms self-reaped + 4 x 100 ms orphans
WORK="$WL normal 200; $WL selfreap 10 100; $WL orphan 4 100"
SELFREAP_S=1.0

# --- can perf count here? -------------------------------------------------
perf_ok=1
if ! command -v perf >/dev/null; then
	bad "perf is not installed (Debian package linux-perf): the perf comparison cannot run"
	perf_ok=0
elif ! perf stat -e task-clock -x, -o "$tmp/p0" true 2>"$tmp/p0.err" ||
	! grep -Eq '^[0-9.]+,msec,task-clock' "$tmp/p0"; then
	bad "perf stat -e task-clock cannot count here: $(cat "$tmp/p0" "$tmp/p0.err" | tr '\n' ' ')"
	perf_ok=0
fi
gnu_time=
[ -x /usr/bin/time ] && gnu_time=/usr/bin/time

# --- one run, four measurements -------------------------------------------
# perf's task-clock runs on local_clock(), which goes on while the host has
# the vCPU (steal); the kernel's runtimes (sum_exec_runtime, what taskstats
# and the burners read) leave steal out (CONFIG_PARAVIRT_TIME_ACCOUNTING).
# So perf may exceed tstime by the share of busy time that was stolen:
# measured from /proc/stat during the run and allowed for, printed.  Noise
# (a burst of steal inside one short exit) gets up to 3 attempts, each
# printed; the test fails when the last one still misses.
inner=(sh -c "$WORK")
[ $perf_ok = 1 ] && inner=(perf stat -e task-clock -x, -o "$tmp/perf.txt" -- "${inner[@]}")
[ -n "$gnu_time" ] && inner=("$gnu_time" -f '%U %S' -o "$tmp/gnu.txt" "${inner[@]}")
# "busy steal" ticks from /proc/stat: user+nice+system+irq+softirq, steal
cpu_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $9; exit}' /proc/stat; }
attempts=3
for attempt in $(seq $attempts); do
	label="FAIL"
	[ "$attempt" -lt $attempts ] && label="attempt $attempt missed"
	read -r busy0 steal0 < <(cpu_ticks)
	"$T" --source=taskstats --json --tree -o "$tmp/nested.json" "${inner[@]}" \
		>"$tmp/nested.wl" 2>"$tmp/nested.err"
	st=$?
	read -r busy1 steal1 < <(cpu_ticks)
	steal_pct=$(python3 -c "print(f'{100 * ($steal1 - $steal0) / max(1, $busy1 - $busy0):.2f}')")
	echo "nested attempt $attempt: host steal $steal_pct% of the busy time"
	if [ $st != 0 ]; then
		echo "$label: nested run exited $st: $(cat "$tmp/nested.err")"
		[ "$attempt" = $attempts ] && fail=1
		continue
	fi
	if python3 - "$tmp" "$perf_ok" "$gnu_time" "$SELFREAP_S" "$label" "$steal_pct" <<'EOF'
import json, re, sys
tmp, perf_ok, gnu, selfreap, label = sys.argv[1], sys.argv[2] == "1", sys.argv[3], float(sys.argv[4]), sys.argv[5]
steal = float(sys.argv[6])
bad = 0
burned = sum(int(m) for m in re.findall(r"burned_ns=(\d+)", open(tmp + "/nested.wl").read())) / 1e9
j = json.load(open(tmp + "/nested.json"))
work = {"sh", "wl-parent", "wl-burn", "wl-middle", "ptop_workload"}
ts_work = sum(r["cpu_s"] for r in j["tree"] if r["comm"] in work)
dev = (ts_work - burned) / burned * 100
print(f"nested: burned {burned:.6f} s; tstime (workload rows) {ts_work:.6f} s ({dev:+.2f}%); "
      f"tstime total {j['cpu_s']:.6f} s, {j['processes']} processes, exact={j['exact']}")
# never less than the burners measured of themselves; above it, perf (the
# kernel's own count) judges: the burners miss each process's start and
# exit after their last reading (+1.7% quiet, +2.8% under a make loop on
# 2026-12-07, where tstime and perf agreed within 0.5%)
if dev < -2 or (dev > 2 and not perf_ok):
    print(f"{label}: tstime differs from the burned amount by {dev:+.2f}% (> 2%)"); bad = 1
if not j["exact"]:
    print(label + ": tstime says its result is not exact"); bad = 1
if perf_ok:
    m = re.search(r"^([\d.]+),msec,task-clock", open(tmp + "/perf.txt").read(), re.M)
    if not m:
        print(label + ": perf printed no task-clock: " + open(tmp + "/perf.txt").read()); bad = 1
    else:
        perf = float(m.group(1)) / 1e3
        pdev = (ts_work - perf) / perf * 100
        # perf counts each process's exit path (mm teardown...), which the
        # stock kernel's taskstats exit record is written before: allow
        # 0.25 ms per process on top of 2%, as ptop_batch_exact.sh does
        # (the module source folds it: tests/vm/test_tstime_kmod.sh)
        tail = j["processes"] * 0.00025 / perf * 100 + steal
        print(f"nested: perf task-clock {perf:.6f} s; tstime vs perf {pdev:+.2f}% "
              f"(allowance below: exit paths + steal {tail:.2f}%); perf vs burned {(perf - burned) / burned * 100:+.2f}%")
        if pdev > 2 or pdev < -(2 + tail):
            print(f"{label}: tstime and perf differ by {pdev:+.2f}% (> 2%, + {tail:.2f}% below)"); bad = 1
if gnu:
    u, s = open(tmp + "/gnu.txt").read().split()[-2:]
    g = float(u) + float(s)
    miss = burned - g
    print(f"nested: GNU time (wait4) {g:.2f} s: misses {miss:.2f} s of {burned:.2f} s "
          f"({miss / burned * 100:.1f}%: self-reaped children and orphans)")
    if miss < 0.5 * selfreap:
        print(label + ": GNU time did not miss the self-reaped part: is the workload right?"); bad = 1
else:
    print("note: /usr/bin/time not installed (Debian package time): GNU time not compared")
sys.exit(bad)
EOF
	then break; fi
	[ "$attempt" = $attempts ] && fail=1
done

# --- plain runs: total vs burned; rusage source ---------------------------
# rusage without a cgroup of the run's own: what time(1) sees, plus orphans
for src in taskstats rusage; do
	nocg=; [ $src = rusage ] && nocg=--no-cgroup
	"$T" --source=$src $nocg --json -o "$tmp/$src.json" sh -c "$WORK" \
		>"$tmp/$src.wl" 2>"$tmp/$src.err" || bad "tstime --source=$src exited $?"
done
python3 - "$tmp" "$SELFREAP_S" <<'EOF' || fail=1
import json, re, sys
tmp, selfreap = sys.argv[1], float(sys.argv[2])
bad = 0
def load(src):
    b = sum(int(m) for m in re.findall(r"burned_ns=(\d+)", open(f"{tmp}/{src}.wl").read())) / 1e9
    return b, json.load(open(f"{tmp}/{src}.json"))
b, j = load("taskstats")
dev = (j["cpu_s"] - b) / b * 100
print(f"plain: burned {b:.6f} s; tstime total {j['cpu_s']:.6f} s ({dev:+.2f}%), "
      f"user {j['user_s']:.6f} sys {j['sys_s']:.6f}, {j['processes']} processes")
# above: the shell and the workload's parents (fork, exec, wait) and each
# process's exit after its last reading, which no burner measures: up to
# 2 ms a process on a loaded machine (+2.51% under a make loop on
# 2026-12-07); one burner counted twice (100 ms and more) is still over
extra = j["processes"] * 0.002 / b * 100
if dev < -2 or dev > 2 + extra:
    print(f"FAIL: tstime total differs from the burned amount by {dev:+.2f}% (> 2%, + {extra:.2f}% above)"); bad = 1
if j["processes"] != 1 + 1 + 1 + 10 + 1 + 4 + 4 + 1:
    # sh, 3 workload parents, 1 + 10 burners, 4 middles + 4 orphans
    print(f"FAIL: {j['processes']} processes, expected 23"); bad = 1 if j["processes"] != 23 else 0
b, r = load("rusage")
miss = b - r["cpu_s"]
print(f"plain: --source=rusage {r['cpu_s']:.6f} s of {b:.6f} s burned: misses {miss:.3f} s "
      f"({miss / b * 100:.1f}%), exact={r['exact']}")
if miss < 0.5 * selfreap or r["exact"] or not r["verdict"].startswith("inexact: no bound"):
    print(f"FAIL: --source=rusage --no-cgroup should miss the self-reaped children and say so: {r['verdict']}"); bad = 1
sys.exit(bad)
EOF
grep -q "^tstime: " "$tmp/rusage.err" && bad "--no-cgroup printed: $(cat "$tmp/rusage.err")" ||
	ok "--no-cgroup: no line about the cgroup"
"$T" -q --source=rusage true 2>"$tmp/q.err"
grep -q warning "$tmp/q.err" && bad "-q still printed a warning" || ok "-q: no warning"

# --- exit statuses ----------------------------------------------------------
expect_rc() {
	local want=$1 what=$2
	shift 2
	"$@" >/dev/null 2>&1
	local rc=$?
	[ $rc = "$want" ] && ok "$what -> $rc" || bad "$what -> $rc, want $want"
}
printf '#!/bin/sh\nexit 0\n' >"$tmp/noexec"
chmod 644 "$tmp/noexec"
expect_rc 3 "exit 3" "$T" sh -c 'exit 3'
expect_rc 143 "killed by SIGTERM" "$T" sh -c 'kill -TERM $$'
expect_rc 127 "command not found" "$T" no-such-command-tstime
expect_rc 126 "not executable" "$T" "$tmp/noexec"
expect_rc 125 "bad option" "$T" --no-such-option true
expect_rc 125 "bad -f directive" "$T" -f '%q' true

# signal forwarding: SIGINT to tstime reaches the command's trap.  Job
# control (set -m) so the background job does not start with SIGINT
# ignored, which a shell could not trap.
set -m
"$T" -q sh -c 'trap "exit 42" INT; echo ready; while :; do sleep 0.05; done' \
	>"$tmp/sig.out" 2>/dev/null &
pid=$!
for _ in $(seq 100); do grep -q ready "$tmp/sig.out" && break; sleep 0.05; done
kill -INT $pid
wait $pid
rc=$?
set +m
[ $rc = 42 ] && ok "SIGINT forwarded: trap exited 42" || bad "SIGINT forwarding: exit $rc, want 42"

# --- JSON schema ------------------------------------------------------------
for src in taskstats rusage; do
	"$T" -q --source=$src --json --tree -o "$tmp/s.json" sh -c 'exit 7'
	python3 - "$tmp/s.json" "$src" <<'EOF' && ok "--json schema ($src)" || bad "--json schema ($src)"
import json, sys
j = json.load(open(sys.argv[1]))
num = (int, float)
want = {"real_s": num, "user_s": num, "sys_s": num, "steal_s": (type(None),) + num,
        "cpu_s": num, "cpu_pct": num, "processes": (int, type(None)),
        "threads": (int, type(None)), "max_rss_kb": (int, type(None)),
        "minor_faults": int, "major_faults": int, "voluntary_ctxsw": int,
        "involuntary_ctxsw": int, "fs_inputs": int, "fs_outputs": int,
        "exit_status": int, "signal": (int, type(None)), "source": str,
        "exact": bool, "command": list, "tree": (list, type(None)),
        "verdict": str, "total_from": str, "counter_s": (type(None),) + num,
        "rusage_s": num, "records_s": (type(None),) + num,
        "exit_paths_s": num, "own_cpu_s": num}
for k, t in want.items():
    assert k in j, f"missing key {k}"
    assert isinstance(j[k], t) and not (t is int and isinstance(j[k], bool)), f"{k}: {j[k]!r}"
assert set(j) == set(want), f"unexpected keys {set(j) - set(want)}"
assert j["exit_status"] == 7 and j["signal"] is None and j["source"] == sys.argv[2]
assert j["command"] == ["sh", "-c", "exit 7"]
assert j["steal_s"] is None  # no per-task steal without the module
if sys.argv[2] == "taskstats":
    assert j["exact"] is True and isinstance(j["tree"], list) and j["processes"] == 1
    for r in j["tree"]:
        assert set(r) == {"comm", "processes", "threads", "user_s", "sys_s", "cpu_s", "share_pct"}, r
        assert abs(r["user_s"] + r["sys_s"] - r["cpu_s"]) <= 2e-6, r
else:
    # the total is the run's cgroup's, exact whatever the records
    assert j["tree"] is None and j["processes"] is None and j["records_s"] is None
assert j["exact"] == (j["verdict"] == "exact"), j["verdict"]
assert j["total_from"] == "cgroup" and j["cpu_s"] >= j["counter_s"] >= j["cpu_s"] * 0.995 - 0.001, j
EOF
done
"$T" --json sh -c 'kill -KILL $$' 2>"$tmp/k.json"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["signal"]==9 and j["exit_status"]==137 and "tree" not in j' \
	"$tmp/k.json" && ok "--json signal 9 / 137, no tree key without --tree" || bad "--json of a killed command"

# --- -f directives ----------------------------------------------------------
fmt() { "$T" -q -f "$1" "${@:2}" 2>&1 >/dev/null; }
check_fmt() {
	local dir=$1 re=$2 got
	shift 2
	got=$(fmt "$dir" "$@")
	[[ $got =~ ^$re$ ]] && ok "-f '$dir' -> '$got'" || bad "-f '$dir' -> '$got', want /$re/"
}
F='[0-9]+\.[0-9]{6}'
check_fmt '%e' "$F" sleep 0.2
got=$(fmt '%e' sleep 0.2)
python3 -c "import sys; sys.exit(not 0.2 <= float('$got') < 1.5)" && ok "%e of sleep 0.2 = $got" || bad "%e of sleep 0.2 = $got"
check_fmt '%E' '0:00\.[0-9]{6}' sleep 0.1
check_fmt '%U' "$F" true
check_fmt '%S' "$F" true
check_fmt '%G' "$F" true
check_fmt '%P' '[0-9]+\.[0-9]{2}%' true
check_fmt '%M' '[0-9]+' true
check_fmt '%x' '5' sh -c 'exit 5'
check_fmt '%x' '143' sh -c 'kill $$'
check_fmt '%C' 'sh -c exit 0' sh -c 'exit 0'
check_fmt '%T' '-' true
check_fmt '%n' '3' sh -c '/bin/true; /bin/true; exit 0'
check_fmt '%N' '[1-9][0-9]*' python3 -c 'import threading; t = threading.Thread(target=print); t.start(); t.join()'
check_fmt '%n %%' '1 %' true
check_fmt 'a\tb' $'a\tb' true
got=$(fmt 'x\ny' true)
[ "$got" = $'x\ny' ] && ok "-f '\\n' escape" || bad "-f '\\n' escape: '$got'"
# %G = %U + %S (no steal measured here), %P = %G / %e
fmt '%U %S %G %e %P' sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' |
	python3 -c '
import sys
u, s, g, e, p = sys.stdin.read().split()
assert abs(float(u) + float(s) - float(g)) <= 2e-6, (u, s, g)
assert abs(float(g) / float(e) * 100 - float(p[:-1])) < 0.5, (g, e, p)
assert float(g) > 0.005, g' && ok "%G = %U + %S, %P = %G/%e" || bad "%U/%S/%G/%P do not add up"

# --- -o / -a / -p / -v / stdout ----------------------------------------------
"$T" -o "$tmp/o.txt" -f one true && "$T" -o "$tmp/o.txt" -f two true
[ "$(cat "$tmp/o.txt")" = two ] && ok "-o overwrites" || bad "-o: $(cat "$tmp/o.txt")"
"$T" -a -o "$tmp/o.txt" -f three true
[ "$(cat "$tmp/o.txt")" = $'two\nthree' ] && ok "-a appends" || bad "-a: $(cat "$tmp/o.txt")"
out=$("$T" -o "$tmp/o2.txt" echo hello 2>"$tmp/o2.err")
[ "$out" = hello ] && [ ! -s "$tmp/o2.err" ] && grep -q '^real' "$tmp/o2.txt" &&
	ok "-o: report in the file, stdout and stderr clean" || bad "-o: stdout '$out'"
out=$("$T" echo hello 2>"$tmp/e.txt")
[ "$out" = hello ] && grep -q '^real ' "$tmp/e.txt" && ok "report on stderr, stdout clean" ||
	bad "default output: stdout '$out'"
"$T" -p sh -c 'exit 0' 2>"$tmp/p.txt"
grep -Eq $'^real [0-9]+\\.[0-9]{6}$' "$tmp/p.txt" && [ "$(sed -n '2s/ .*//p;3s/ .*//p' "$tmp/p.txt" | tr '\n' ' ')" = "user sys " ] &&
	[ "$(wc -l <"$tmp/p.txt")" = 3 ] && ok "-p: POSIX format" || bad "-p: $(cat "$tmp/p.txt")"
"$T" --explain -q -f '' true 2>"$tmp/v.txt"
grep -q '^tstime: source taskstats' "$tmp/v.txt" && ok "--explain names the source" || bad "--explain: $(cat "$tmp/v.txt")"
"$T" --tree -q sh -c "$WL selfreap 3 50 >/dev/null" 2>"$tmp/t.txt"
awk '/^COMMAND/{h=1; next} h && NR>1 {print $1; exit}' "$tmp/t.txt" | grep -qx wl-burn &&
	ok "--tree: wl-burn first" || bad "--tree: $(cat "$tmp/t.txt")"

[ "$(cat /proc/sys/kernel/task_delayacct)" = "$delayacct0" ] &&
	ok "kernel.task_delayacct untouched ($delayacct0)" || bad "kernel.task_delayacct changed although not needed"

# an argument that is not UTF-8: the JSON stays valid UTF-8, the byte
# written as the text \xff (as ptop's JSON writes it)
"$T" -q --source=rusage --json -o "$tmp/utf8.json" true "$(printf 'a\377b')"
python3 - "$tmp/utf8.json" <<'EOF' && ok "--json: a non-UTF-8 argument as \\xff, valid UTF-8" || bad "--json, a non-UTF-8 argument"
import json, sys
j = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", errors="strict"))
assert j["command"] == ["true", "a\\xffb"], j["command"]
EOF

[ $fail = 0 ] && echo "tstime: all passed" || echo "tstime: FAILED"
exit $fail
