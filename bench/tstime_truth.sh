#!/usr/bin/env bash
# tstime against the kernel's own counter, side by side with GNU time, in
# one run: each workload runs inside a cgroup v2 this script makes, once
# per measuring tool; the truth of each run is that cgroup's usage_usec
# delta minus the tool's own process (the kernel's count of it, by
# tests/helpers/cg_runner.py). Prints a markdown table to
# bench/results/tstime_truth.md: each tool's total as a share of the
# truth of its run, and tstime's own CPU as a share of the command's.
#
#   bench/tstime_truth.sh [--build]     (env B=build; as root)
# --build adds a parallel build of this project's library (make -j2 into
# a scratch directory, ~10 s of CPU).
set -uo pipefail
B=${B:-build}
T=$(realpath "$B/tstime")
WL=$(realpath "$B/tests/helpers/ptop_workload")
OUT=bench/results/tstime_truth.md
tmp=$(mktemp -d)
ok() { :; }
bad() { echo "$*" >&2; }
. tests/helpers/tstime_cg.sh
cg_setup

declare -A WORK=(
	[loop1000]='for i in $(seq 1000); do /bin/true; done'
	[selfreap300]="$WL selfreap 300 2 >/dev/null"
	[orphan4]="$WL orphan 4 100 >/dev/null"
	[threads]="python3 -c 'import threading,time
def b():
    e = time.thread_time() + 0.1
    while time.thread_time() < e: pass
for _ in range(3):
    ts = [threading.Thread(target=b) for _ in range(2)]
    [t.start() for t in ts]; [t.join() for t in ts]'"
)
order=(loop1000 selfreap300 orphan4 threads)
if [ "${1:-}" = --build ]; then
	WORK[build]="rm -rf $tmp/b; make -s -j2 B=$tmp/b $tmp/b/libptop.a >/dev/null"
	order+=(build)
fi

tools=("taskstats" "rusage" "taskstats --no-cgroup" "rusage --no-cgroup")
"$T" -q --source=kmod true 2>/dev/null && tools=("kmod" "kmod --no-cgroup" "${tools[@]}")

# share NAME: "tstime total / truth" and own share, from $tmp/NAME.*
share() {
	python3 - "$tmp/$1.json" "$tmp/$1.cg" ${2:+"$2"} <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
u0, u1, lo, hi, self_ns, _ = map(int, open(sys.argv[2]).read().split())
# the tool's process ran between lo and hi before it moved in
truth = (u1 - u0 - self_ns + (lo + hi) / 2) / 1e9
if len(sys.argv) > 3:
    print(f"{truth:.3f}"); sys.exit(0)
v = "exact" if j["exact"] else "inexact"
print(f"{j['cpu_s'] / truth * 100:.2f}% {v} (own {j['own_cpu_s'] / j['cpu_s'] * 100:.1f}%)")
PY
}

{
	echo "# tstime against the cgroup truth"
	echo
	echo "$(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)," \
		"commit $(git rev-parse --short HEAD 2>/dev/null). Each cell: the tool's total as a share" \
		"of its own run's truth (the run's cgroup usage_usec minus the kernel's count of the tool's process), tstime's" \
		"verdict, and tstime's own CPU as a share of its total."
	echo
	printf '| workload | truth s |'
	for t in "${tools[@]}"; do printf ' tstime --source=%s |' "$t"; done
	echo ' GNU time |'
	printf '|---|---:|'
	for t in "${tools[@]}"; do printf -- '---:|'; done
	echo '---:|'
	for w in "${order[@]}"; do
		row="| $w |"
		first=1
		for t in "${tools[@]}"; do
			n="$w-${t// /_}"
			# shellcheck disable=SC2086
			cg_run "$n" --source=$t -- sh -c "${WORK[$w]}"
			if [ $first = 1 ]; then
				row+=" $(share "$n" truth) |"
				first=0
			fi
			row+=" $(share "$n") |"
		done
		python3 tests/helpers/cg_runner.py "$CG" "$tmp/gnu.cg" -- \
			/usr/bin/time -f '%U %S' -o "$tmp/gnu.txt" sh -c "${WORK[$w]}" >/dev/null 2>&1
		row+=" $(python3 -c 'import sys; u,s=map(float,open(sys.argv[1]).read().split()[-2:]); u0,u1,lo,hi,me,_=map(int,open(sys.argv[2]).read().split()); t=(u1-u0-me+(lo+hi)/2)/1e9; print(f"{(u+s)/t*100:.2f}%")' "$tmp/gnu.txt" "$tmp/gnu.cg") |"
		echo "$row"
	done
} | tee "$OUT"
