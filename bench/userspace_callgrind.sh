#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# User space per refresh when few tasks changed (it must follow what
# changed, not the number of tasks):
# callgrind's instruction count of one refresh of the interactive view's
# work (merge an incremental answer, the interval math, the view's select
# and sort, the rows of one 80x24 window: build/bench/userspace_cost) at
# 100 and at 10,000 tasks, 10 of them active, and the top functions.
#
# Target: proportional to what changed. Both runs change the same 10
# tasks, so the cost may grow only with the lookups in a table of N
# (log2 10000 / log2 100 = 2): at most 2.0 x the cost at 100 tasks.
# The same is asked of pairs of runs in which 10 other tasks run each
# refresh (userspace_cost -m: the last refresh's 10 go quiet), in which a
# sleeper dies each refresh (-x: an EXIT record), and of both in thread
# mode (-H) and in the tree view (-t).
#
# Batch (-b, ptop -b: every row of every interval in the text format)
# writes N rows by design, so its line is judged per row: instructions
# per refresh / N at 10,000 tasks, at most 1,000 (target; main at
# 200391f: 24,850, all of it printf per cell), and printed beside the
# ratio to 100 tasks, which grows with N as it must. The same for
# --format=csv, json and openmetrics (-f FORMAT; main at 8b885be: 70,520,
# 43,221 and 364 per row, printf per field; openmetrics writes the first
# 10 rows and sums the others).
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

ir_per_refresh() {	# N FLAGS -> instructions per refresh; the profile in $tmp/cg.N.FLAGS
	f=$(echo "$2" | tr -d ' -')
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$tmp/cg.$1.$f" \
		"$B/bench/userspace_cost" -n "$1" -a 10 -r "$R" $2 >"$tmp/out.$1.$f" 2>"$tmp/vg.$1.$f" ||
		{ cat "$tmp/vg.$1.$f" >&2; exit 1; }
	callgrind_annotate --auto=no "$tmp/cg.$1.$f" |
		awk -v r="$R" '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%d\n", $1 / r }'
}
judge_rows() {	# LARGE SMALL WHAT -> the PASS/FAIL line of a mode whose rows grow with N
	awk -v a="$1" -v b="$2" -v what="$3" 'BEGIN {
		x = a / 10000
		printf "%s ptop user space, 10,000 tasks with %s: %.0f instructions per row (target <= 1000; %.1f x the instructions per refresh at 100 tasks, rows grow with N by design)\n",
			x <= 1000 ? "PASS" : "FAIL", what, x, a / b }'
}
judge() {	# LARGE SMALL WHAT -> the PASS/FAIL line
	awk -v a="$1" -v b="$2" -v what="$3" 'BEGIN {
		x = a / b
		printf "%s ptop user space, 10,000 tasks with %s: %.2f x the instructions per refresh at 100 tasks (target <= 2.0)\n",
			x <= 2.0 ? "PASS" : "FAIL", what, x }'
}
# FLAGS|what: the same 10 active; 10 others each refresh (10 go busy, 10
# quiet); a sleeper that dies each refresh (an EXIT record); the same in
# thread mode (-H) and in the tree view (-t)
MODES='|10 active
-m|10 others active each refresh
-x|10 active and an exit each refresh
-H|10 active, thread mode (-H)
-H -x|10 active and an exit each refresh, thread mode (-H)
-t|10 active, the tree view (t)
-t -m|10 others active each refresh, the tree view (t)
-t -x|10 active and an exit each refresh, the tree view (t)
-b|10 active, batch (-b, every row)
-f csv|10 active, batch --format=csv (every row)
-f json|10 active, batch --format=json (every row)
-f openmetrics|10 active, batch --format=openmetrics (10 rows, the rest summed)'
rows= lines=
nl='
'
old_ifs=$IFS
IFS=$nl
for m in $MODES; do
	IFS=$old_ifs
	flags=${m%%|*}
	what=${m#*|}
	small=$(ir_per_refresh 100 "$flags")
	large=$(ir_per_refresh 10000 "$flags")
	rows="$rows| ${flags:-(none)} | $what | $small | $large |$nl"
	case $flags in
	-b* | -f*) lines="$lines    $(judge_rows "$large" "$small" "$what")$nl" ;;
	*) lines="$lines    $(judge "$large" "$small" "$what")$nl" ;;
	esac
	IFS=$nl
done
IFS=$old_ifs
{
	echo "# User space per refresh, few tasks changed"
	echo
	echo "$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), \`bench/userspace_callgrind.sh -r $R\`"
	echo "(callgrind: instructions of $R refreshes after 3 warm-up ones, divided by $R;"
	echo "\`build/bench/userspace_cost -n N -a 10 FLAGS\`)."
	echo
	echo "| flags | what changes | 100 tasks | 10,000 tasks |"
	echo "|---|---|---|---|"
	printf '%s' "$rows"
	echo
	printf '%s' "$lines"
	IFS=$nl
	for m in $MODES; do
		IFS=$old_ifs
		flags=${m%%|*}
		f=$(echo "$flags" | tr -d ' -')
		echo
		echo "Top functions at 10,000 tasks, ${flags:-no flags} (self instructions, all $R refreshes):"
		echo
		callgrind_annotate --auto=no --threshold=99 "$tmp/cg.10000.$f" |
			sed -n '/file:function/,$p' | sed '1,2d' | head -12 |
			sed 's/ \[[^]]*\]$//; s/^/    /'
		IFS=$nl
	done
	IFS=$old_ifs
} >"$OUT"
cat "$OUT"
