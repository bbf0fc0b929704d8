#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# User space per refresh when few tasks changed (issue 10, point 2):
# callgrind's instruction count of one refresh of the interactive view's
# work (merge an incremental answer, the interval math, the view's select
# and sort, the rows of one 80x24 window: build/bench/userspace_cost) at
# 100 and at 10,000 tasks, 10 of them active, and the top functions.
#
# Target: proportional to what changed. Both runs change the same 10
# tasks, so the cost may grow only with the lookups in a table of N
# (log2 10000 / log2 100 = 2): at most 2.0 x the cost at 100 tasks.
#
#   bench/userspace_callgrind.sh [-r REFRESHES] [-o FILE.md]
set -eu
B=${B:-build}
R=10
OUT=bench/results/userspace_callgrind.md
while getopts r:o: opt; do
	case $opt in
	r) R=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) echo "usage: $0 [-r REFRESHES] [-o FILE.md]" >&2; exit 2 ;;
	esac
done
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 1; }
[ -x "$B/bench/userspace_cost" ] || { echo "$0: build $B/bench/userspace_cost first (make bench)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ir_per_refresh() {	# N -> instructions per refresh; the profile in $tmp/cg.N
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$tmp/cg.$1" \
		"$B/bench/userspace_cost" -n "$1" -a 10 -r "$R" >"$tmp/out.$1" 2>"$tmp/vg.$1" ||
		{ cat "$tmp/vg.$1" >&2; exit 1; }
	callgrind_annotate --auto=no "$tmp/cg.$1" |
		awk -v r="$R" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%d\n", $1 / r }'
}
small=$(ir_per_refresh 100)
large=$(ir_per_refresh 10000)
ratio=$(awk -v a="$large" -v b="$small" 'BEGIN { printf "%.2f", a / b }')
verdict=$(awk -v x="$ratio" 'BEGIN { print (x <= 2.0 ? "PASS" : "FAIL") }')
line="$verdict ptop user space, 10,000 tasks with 10 active: $ratio x the instructions per refresh at 100 tasks (target <= 2.0)"
{
	echo "# User space per refresh, few tasks changed"
	echo
	echo "$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), \`bench/userspace_callgrind.sh -r $R\`"
	echo "(callgrind: instructions of $R refreshes after 3 warm-up ones, divided by $R)."
	echo
	echo "| tasks | active | instructions per refresh |"
	echo "|---|---|---|"
	echo "| 100 | 10 | $small |"
	echo "| 10,000 | 10 | $large |"
	echo
	echo "    $line"
	for n in 100 10000; do
		echo
		echo "Top functions at $n tasks (self instructions, all $R refreshes):"
		echo
		callgrind_annotate --auto=no --threshold=99 "$tmp/cg.$n" |
			sed -n '/file:function/,$p' | sed '1,2d' | head -12 |
			sed 's/ \[[^]]*\]$//; s/^/    /'
	done
} >"$OUT"
cat "$OUT"
