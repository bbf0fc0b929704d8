#!/usr/bin/env bash
# The exactness cases (docs/precision.md), run around `ptop -b --format=json`; each
# interval is judged by what ptop claims about it:
#   - "exact" must hold: |off| <= 1% of capacity (0.5% with the module),
#     and <= the source's bound (the exit paths included: they are time no
#     row has), what the snapshot windows can move <= that bound, no
#     reason;
#   - "within" (a source whose bound is wider than exact's: procfs' ticks)
#     must hold that bound, with no reason; counted as "within:N" among
#     the reasons;
#   - "inexact" must give a reason.
# Prints one result line per case and source:
#   RESULT case source intervals inexact worst_off_pct worst_exact_off_pct max_snapshot_ms reasons
# and exits 1 when a claim did not hold (never for an inexact share).
#
#   precision_cases.sh [-s SOURCES] [-n INTERVALS] [-m|-M] [-1 RUNS] [-S N] [-k DIR] [CASES...]
# CASES: sleepersN (N sleeping processes started and killed during the
# run), steadyN (N sleepers and 2 busy loops), churn (2 busy loops,
# self-reaping children and double-fork orphans), timersN (N processes
# in nanosleep, epoll_wait, poll, timed futex, timerfd: a timer each),
# poolN (a thread-pool service: 4 processes, N threads waking every 10 ms
# to 2 s for 1 ms of work), threadsN (one process of N timer threads,
# ptop in --threads mode); default: sleepers2000
# sleepers10000 steady5000 churn; none: only the -1 runs.
# -m: each case once more with a parallel `make -j4` as background noise;
# -M: only with the make noise (more intervals of one case: -M -n 40);
# -k DIR: keep each run's JSON there (CASE.SOURCE.json);
# PREC_VERBOSE=1: one line per interval, with its inexact reasons;
# -1 RUNS: also RUNS x `ptop -b -n 1` (the first interval) per source,
# with -S N sleepers (default 5000) and 2 busy loops. SOURCES:
# comma-separated (default: taskstats,procfs). B= the build directory
# (default build). Run it from the top of the tree.
set -uo pipefail
B=${B:-build}
PTOP=$B/ptop
H=$B/tests/helpers
sources=taskstats,procfs
n=8
make_too=0
make_only=0
keep=
ones=0
nsleep1=5000
while getopts "s:n:mM1:S:k:" o; do
	case $o in
	s) sources=$OPTARG ;;
	n) n=$OPTARG ;;
	m) make_too=1 ;;
	M) make_too=1 make_only=1 ;;
	k) keep=$OPTARG ;;
	1) ones=$OPTARG ;;
	S) nsleep1=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cases=${*:-sleepers2000 sleepers10000 steady5000 churn}
work=$(mktemp -d)
bg=()
fail=0

cleanup() {
	local p
	for p in "${bg[@]}"; do kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null; done
	wait 2>/dev/null
	bg=()
}
trap 'cleanup; rm -rf "$work"' EXIT

# start CMD... in its own process group (so that all of it can be stopped)
start() {
	setsid "$@" >>"$work/bg.log" 2>&1 &
	bg+=($!)
}

# a C project to build over and over: lib/ of this tree
make_noise() {
	if ! [ -e "$work/noise/built" ]; then
		mkdir -p "$work/noise/kmod"
		cp -r lib "$work/noise/"
		cp -r kmod/uapi "$work/noise/kmod/"
		cat >"$work/noise/Makefile" <<'EOF'
CFLAGS = -O2 -D_GNU_SOURCE -I. $(shell pkg-config --cflags libnl-genl-3.0)
OBJS = $(patsubst %.c,%.o,$(wildcard lib/*.c lib/*/*.c))
all: $(OBJS)
EOF
		# one build first (once: it takes minutes in the VM): a noise
		# that fails at once would be no noise
		make -C "$work/noise" -s -j4 >/dev/null 2>&1 && touch "$work/noise/built" ||
			{ echo "FAIL: the make -j4 noise does not build"; fail=1; }
	fi
	start bash -c "cd '$work/noise' && while :; do make -s -B -j4 >/dev/null 2>&1; done"
}

wait_started() {	# SECS: until ptop_sleepers says all its children are up
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		grep -q '^started' "$work/bg.log" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "FAIL: the sleepers were not all up after $1 s"
	fail=1
}

setup_case() {	# CASE: start its workload; the busy ones start before ptop
	case $1 in
	sleepers[0-9]*) start "$H/ptop_sleepers" -w 1.5 -k 3 "${1#sleepers}" ;;
	steady[0-9]*)
		: >"$work/bg.log"
		start "$H/ptop_sleepers" "${1#steady}"
		start "$H/ptop_workload" spin 2
		# all of them up before the first snapshot (on a busy
		# machine 5,000 forks take longer than the 3 s it once was)
		wait_started 120
		sleep 1 ;;
	churn)
		start "$H/ptop_workload" spin 2
		start "$H/ptop_churn" -p ign,orphan 60 ;;
	timers[0-9]* | pool[0-9]* | threads[0-9]*)
		: >"$work/bg.log"
		case $1 in
		timers*) start "$H/ptop_timers" "${1#timers}" ;;
		pool*) start "$H/ptop_timers" -P 4 "${1#pool}" ;;
		*) start "$H/ptop_timers" -T "${1#threads}" ;;
		esac
		start "$H/ptop_workload" spin 2
		wait_started 120
		sleep 1 ;;
	*) echo "unknown case $1" >&2; exit 2 ;;
	esac
}

judge() {	# FILE CASE SOURCE
	python3 - "$@" <<'PY'
import json, os, sys
path, case, source = sys.argv[1:4]
bad, n, inexact, worst, worst_exact, snap = 0, 0, 0, 0.0, 0.0, 0.0
reasons = {}
for line in open(path):
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    n += 1
    tail = d.get("exit_paths_pct") or 0.0
    off = abs(d["off_pct"] + tail)
    tol = d["tolerance_pct"]
    worst = max(worst, abs(d["off_pct"]))
    if os.environ.get("PREC_VERBOSE"):
        print(f"  {case} [{source}] interval {d['interval_s']:.3f}s off {d['off_pct']:+.2f}% tol {tol:.2f}% "
              f"idle {d['idle_pct']:.2f}% steal {d['steal_pct']} exited {d['exited']} "
              f"snapshot {d['snapshot_ms']:.1f} ms exit paths {tail}% {'exact' if d['exact'] else d['inexact']}")
    snap = max(snap, d["snapshot_ms"])
    # exact's one meaning: 1% of capacity, 0.5% with the module
    limit = d["capacity_pct"] * (0.005 if source.startswith("kmod") else 0.01)
    if d["exact"]:
        worst_exact = max(worst_exact, abs(d["off_pct"]))
        # 0.01: the printed values are rounded
        if d["inexact"] or d.get("within") or off > limit + 0.01 or \
                abs(d["off_pct"]) > tol + 0.01 or off > tol + 0.01 or \
                tail > tol + 0.01 or d["skew_pct"] > tol + 0.01:
            print(f"FAIL {case} [{source}]: claimed exact: {d['off_pct']}% off, exit paths {tail}%, skew {d['skew_pct']}%, tolerance {tol}%, exact's {limit:.2f}%")
            bad = 1
    elif d.get("within"):
        reasons["within"] = reasons.get("within", 0) + 1
        if d["inexact"] or off > tol + 0.01 or d["skew_pct"] > tol + 0.01 or tol <= limit:
            print(f"FAIL {case} [{source}]: claimed within \u00b1{tol}%: {d['off_pct']}% off, skew {d['skew_pct']}%")
            bad = 1
    else:
        inexact += 1
        if not d["inexact"]:
            print(f"FAIL {case} [{source}]: inexact without a reason")
            bad = 1
        for r in d["inexact"]:
            k = " ".join(w for w in r.split(" (")[0].split() if not w[0] in "0123456789+-")
            k = k.replace(" ms", "")
            reasons[k] = reasons.get(k, 0) + 1
if not n:
    print(f"FAIL {case} [{source}]: no interval")
    bad = 1
rs = ",".join(f"{k}:{v}" for k, v in sorted(reasons.items())) or "-"
print(f"RESULT {case} {source} {n} {inexact} {worst:.2f} {worst_exact:.2f} {snap:.1f} {rs}")
sys.exit(bad)
PY
}

run_case() {	# CASE SOURCE LABEL
	local out=$work/$3.$2.json thr=()
	setup_case "$1"
	case $1 in threads*) thr=(--threads) ;; esac
	"$PTOP" -b --format=json -d 1 -n "$n" --source="$2" "${thr[@]}" -p 1 -o PID >"$out" 2>"$work/err" ||
		{ echo "FAIL $3 [$2]: ptop exited $?: $(cat "$work/err")"; fail=1; }
	judge "$out" "$3" "$2" || fail=1
	if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$out" "$keep/"; fi
	cleanup
}

IFS=, read -ra srcs <<<"$sources"
for c in $cases; do
	[ "$c" = none ] && continue	# only the -1 runs
	for s in "${srcs[@]}"; do
		[ $make_only = 1 ] || run_case "$c" "$s" "$c"
		if [ $make_too = 1 ]; then
			make_noise
			sleep 2
			run_case "$c" "$s" "$c+make"
			cleanup
		fi
	done
done

# the first interval, as `top -bn1` users see it
if [ "$ones" -gt 0 ]; then
	for s in "${srcs[@]}"; do
		: >"$work/bg.log"
		start "$H/ptop_sleepers" "$nsleep1"
		start "$H/ptop_workload" spin 2
		wait_started 120
		sleep 1
		: >"$work/one.$s.json"
		for _ in $(seq "$ones"); do
			"$PTOP" -b --format=json -n 1 -d 1 --source="$s" -p 1 -o PID >>"$work/one.$s.json" 2>"$work/err" ||
				{ echo "FAIL -n 1 [$s]: $(cat "$work/err")"; fail=1; }
		done
		# exactly one interval per run
		k=$(grep -c '^{' "$work/one.$s.json")
		[ "$k" = "$ones" ] || { echo "FAIL -n 1 [$s]: $k intervals from $ones runs"; fail=1; }
		judge "$work/one.$s.json" "n1x$ones" "$s" || fail=1
		cleanup
	done
fi
exit $fail
