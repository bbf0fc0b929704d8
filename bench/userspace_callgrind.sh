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
# The same is asked of a second pair of runs in which 10 other tasks run
# each refresh (userspace_cost -m: the last refresh's 10 go quiet), and
# a third in which a sleeper dies each refresh (-x: an EXIT record).
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

ir_per_refresh() {	# N [-m] -> instructions per refresh; the profile in $tmp/cg.N$2
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$tmp/cg.$1${2-}" \
		"$B/bench/userspace_cost" -n "$1" -a 10 -r "$R" ${2-} >"$tmp/out.$1" 2>"$tmp/vg.$1" ||
		{ cat "$tmp/vg.$1" >&2; exit 1; }
	callgrind_annotate --auto=no "$tmp/cg.$1${2-}" |
		awk -v r="$R" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%d\n", $1 / r }'
}
judge() {	# LARGE SMALL WHAT -> the PASS/FAIL line
	awk -v a="$1" -v b="$2" -v what="$3" 'BEGIN {
		x = a / b
		printf "%s ptop user space, 10,000 tasks with %s: %.2f x the instructions per refresh at 100 tasks (target <= 2.0)\n",
			x <= 2.0 ? "PASS" : "FAIL", what, x }'
}
small=$(ir_per_refresh 100)
large=$(ir_per_refresh 10000)
line=$(judge "$large" "$small" "10 active")
# the same with other tasks active each time: 10 go busy, 10 go quiet
msmall=$(ir_per_refresh 100 -m)
mlarge=$(ir_per_refresh 10000 -m)
mline=$(judge "$mlarge" "$msmall" "10 others active each refresh")
# the same 10 active and a sleeper that dies each refresh (an EXIT record)
xsmall=$(ir_per_refresh 100 -x)
xlarge=$(ir_per_refresh 10000 -x)
xline=$(judge "$xlarge" "$xsmall" "10 active and an exit each refresh")
{
	echo "# User space per refresh, few tasks changed"
	echo
	echo "$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), \`bench/userspace_callgrind.sh -r $R\`"
	echo "(callgrind: instructions of $R refreshes after 3 warm-up ones, divided by $R)."
	echo
	echo "| tasks | active | instructions per refresh |"
	echo "|---|---|---|"
	echo "| 100 | the same 10 | $small |"
	echo "| 10,000 | the same 10 | $large |"
	echo "| 100 | 10 others each refresh (\`-m\`) | $msmall |"
	echo "| 10,000 | 10 others each refresh (\`-m\`) | $mlarge |"
	echo "| 100 | the same 10, a sleeper dies each refresh (\`-x\`) | $xsmall |"
	echo "| 10,000 | the same 10, a sleeper dies each refresh (\`-x\`) | $xlarge |"
	echo
	echo "    $line"
	echo "    $mline"
	echo "    $xline"
	for n in 100 10000 10000-x; do
		what=${n%-x}
		[ "$n" = "$what" ] || what="$what tasks with an exit each refresh (-x)"
		[ "$n" != "${n%-x}" ] || what="$what tasks"
		echo
		echo "Top functions at $what (self instructions, all $R refreshes):"
		echo
		callgrind_annotate --auto=no --threshold=99 "$tmp/cg.$n" |
			sed -n '/file:function/,$p' | sed '1,2d' | head -12 |
			sed 's/ \[[^]]*\]$//; s/^/    /'
	done
} >"$OUT"
cat "$OUT"
