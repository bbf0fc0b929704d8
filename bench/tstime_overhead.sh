#!/usr/bin/env bash
# tstime's own overhead: `tstime true` N times (default 200) against plain
# `true`, against /usr/bin/time when installed, and per tstime source that
# can run here (taskstats needs root). Wall clock of the whole loop, per
# run; reported in bench/results/tstime_overhead.md, not asserted.
#
#   bench/tstime_overhead.sh [N]        (env B=build)
set -uo pipefail
B=${B:-build}
N=${1:-200}
T=$B/tstime
OUT=bench/results/tstime_overhead.md
[ -x "$T" ] || { echo "build $T first (make)" >&2; exit 1; }
mkdir -p "$(dirname "$OUT")"

TRUE=$(type -P true)	# the binary, not the shell builtin

# loop CMD...: wall ns of N runs of CMD (output discarded)
loop() {
	local t0 t1 i
	t0=$(date +%s%N)
	for ((i = 0; i < N; i++)); do
		"$@" >/dev/null 2>&1
	done
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

rows=()
add() {	# label ns
	rows+=("$1|$2")
}

add "$TRUE (plain)" "$(loop "$TRUE")"
if [ -x /usr/bin/time ]; then
	add "/usr/bin/time $TRUE" "$(loop /usr/bin/time "$TRUE")"
fi
add "tstime --source=rusage $TRUE" "$(loop "$T" --source=rusage "$TRUE")"
if "$T" -q --source=taskstats "$TRUE" 2>/dev/null; then
	add "tstime --source=taskstats $TRUE" "$(loop "$T" --source=taskstats "$TRUE")"
fi
if "$T" -q --source=kmod "$TRUE" 2>/dev/null; then
	add "tstime --source=kmod $TRUE" "$(loop "$T" --source=kmod "$TRUE")"
fi
add "tstime $TRUE (best: $("$T" --explain -q -f '' "$TRUE" 2>&1 | sed -n 's/^tstime: source \([a-z]*\).*/\1/p'))" \
	"$(loop "$T" "$TRUE")"

base=${rows[0]#*|}
{
	echo "# tstime overhead"
	echo
	echo "$N runs each, wall clock of the loop; $(date -u +%Y-%m-%dT%H:%MZ)," \
		"$(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "| command | total ms | per run ms | overhead vs plain ms/run |"
	echo "|---|---:|---:|---:|"
	for r in "${rows[@]}"; do
		ns=${r#*|}
		awk -v l="${r%%|*}" -v ns="$ns" -v b="$base" -v n="$N" 'BEGIN {
			printf "| `%s` | %.1f | %.3f | %+.3f |\n", l, ns / 1e6,
				ns / n / 1e6, (ns - b) / n / 1e6 }'
	done
	echo
	echo "The taskstats source registers the exit listener and the proc connector"
	echo "and resolves the genetlink family per run; rusage only forks and waits."
} >"$OUT"
cat "$OUT"
