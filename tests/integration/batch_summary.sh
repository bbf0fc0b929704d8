#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `ptop -b` read as `top -b`: a summary block after the headline (uptime
# and load, tasks by state, memory and swap, as top prints them) and a
# default table that fits 100 characters with no column that is "-" on
# every row, on every source that opens here. The summary's figures are
# checked against the kernel's own files read just before and just after
# ptop's interval: /proc/loadavg (it moves at most once per 5 s, so
# ptop's value is one of the two readings), /proc/meminfo (MemTotal
# exact; free within what moved between the readings plus a margin), and
# the tasks against the /proc/PID directories. The machine formats keep
# their fields: their default columns are not the text ones.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/ptop_bsum.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
need_bins "$PTOP"

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
ntasks() { ls -d /proc/[0-9]* 2>/dev/null | wc -l; }
# within lo - slack .. hi + slack (numbers with decimals)
between() {
	awk -v v="$1" -v a="$2" -v b="$3" -v s="$4" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a
		exit !(v >= lo - s && v <= hi + s) }'
}

# one run: loadavg, meminfo and the tasks before and after, ptop between
sample() {
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	free0=$(meminfo MemFree)
	n0=$(ntasks)
	"$PTOP" -b -n 1 -d 0.2 --no-config "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	load1=$(cut -d' ' -f1-3 /proc/loadavg)
	free1=$(meminfo MemFree)
	n1=$(ntasks)
}

# --- the summary against the kernel ----------------------------------------
got_load=
for try in 1 2 3; do
	sample
	[ $st = 0 ] || { bad "ptop -b exit $st: $(head -2 "$tmp/err")"; break; }
	l=$(grep -m1 -E '^up .*,  load average: ' "$tmp/out")
	got_load=$(sed -E 's/.*load average: ([0-9.]+), ([0-9.]+), ([0-9.]+)$/\1 \2 \3/' <<<"$l")
	# a change of /proc/loadavg during the run: both readings differ
	[ "$got_load" = "$load0" ] || [ "$got_load" = "$load1" ] && break
done
if [ "$got_load" = "$load0" ] || [ "$got_load" = "$load1" ]; then
	ok "load average '$got_load' is /proc/loadavg's ('$load0' / '$load1')"
else
	bad "load average '$got_load', /proc/loadavg '$load0' then '$load1'"
fi

total_kb=$(meminfo MemTotal)
m=$(grep -m1 '^MiB Mem : ' "$tmp/out")
read -r mt mf mu mb < <(sed -E 's/^MiB Mem : *([0-9.]+) total, *([0-9.]+) free, *([0-9.]+) used, *([0-9.]+) buff\/cache$/\1 \2 \3 \4/' <<<"$m")
want=$(awk -v k="$total_kb" 'BEGIN { printf "%.1f", k / 1024 }')
[ "$mt" = "$want" ] && ok "MiB Mem total $mt = MemTotal $total_kb KiB" ||
	bad "MiB Mem total '$mt', MemTotal says $want ('$m')"
# free: between the readings, 256 MiB either side (a compiler beside us
# can take and give back that much inside the run); MemAvailable, the
# other figure it could be taken for, is usually gigabytes away
if between "$mf" "$(awk -v k="$free0" 'BEGIN { print k / 1024 }')" \
	   "$(awk -v k="$free1" 'BEGIN { print k / 1024 }')" 256; then
	ok "MiB Mem free $mf within MemFree $((free0 / 1024))..$((free1 / 1024)) MiB"
else
	bad "MiB Mem free $mf, MemFree $((free0 / 1024)) then $((free1 / 1024)) MiB"
fi
# free + used + buff/cache is about the total (used = total - available)
awk -v t="$mt" -v u="$mu" 'BEGIN { exit !(u > 0 && u <= t) }' &&
	ok "used $mu of $mt MiB" || bad "used '$mu' of '$mt' MiB"
s=$(grep -m1 '^MiB Swap: ' "$tmp/out")
st_mib=$(sed -E 's/^MiB Swap: *([0-9.]+) total.*/\1/' <<<"$s")
want=$(awk -v k="$(meminfo SwapTotal)" 'BEGIN { printf "%.1f", k / 1024 }')
[ "$st_mib" = "$want" ] && ok "MiB Swap total $st_mib = SwapTotal" ||
	bad "MiB Swap total '$st_mib', SwapTotal says $want ('$s')"

tasks_line() {
	t=$(grep -m1 -E '^Tasks: ' "$tmp/out")
	read -r tt tr ts tp tz < <(sed -E 's/^Tasks: ([0-9]+) total, ([0-9]+) running, ([0-9]+) sleeping, ([0-9]+) stopped, ([0-9]+) zombie$/\1 \2 \3 \4 \5/' <<<"$t")
	# tasks come and go beside a build: a tenth and 20 either side
	slack=$(( (n0 > n1 ? n0 : n1) / 10 + 20 ))
	[[ $tt =~ ^[0-9]+$ ]] && between "$tt" "$n0" "$n1" "$slack"
}
# thousands of tasks being killed at once stay in /proc, dying, after
# ptop has stopped reading them: another sample then
for try in 1 2 3; do
	tasks_line && break
	echo "  (tasks: ptop $tt, /proc $n0 then $n1: again)"
	sample
done
if tasks_line; then
	ok "Tasks: $tt total, /proc has $n0 then $n1"
else
	bad "Tasks line '$t', /proc has $n0 then $n1"
fi
[[ $tr =~ ^[0-9]+$ ]] && [ $((tr + ts + tp + tz)) -le "$tt" ] && [ "$tr" -ge 1 ] &&
	ok "by state: $tr running (ptop itself), $ts sleeping, $tp stopped, $tz zombie" ||
	bad "by state: '$t'"
# the block's order: headline, summary, system line, header
order=$(grep -v '^#' "$tmp/out" | head -7 | cut -c1-8 | tr '\n' '|')
[[ $order == 'ptop 202|up '*'|Tasks: '*'|MiB Mem |MiB Swap|idle '*'|'*PID* ]] &&
	ok "the block: headline, up/load, tasks, memory, swap, system line, header" ||
	bad "the block's lines begin '$order'"

# --- threads: the same line, counting threads -----------------------------
for try in 1 2 3; do
	sample --threads
	t=$(grep -m1 -E '^Threads: [0-9]+ total' "$tmp/out")
	tt=$(awk '{ print $2 }' <<<"$t")
	[ -n "$t" ] && [ "$tt" -ge "$n0" ] && break
done
[ -n "$t" ] && [ "$tt" -ge "$n0" ] && ok "--threads: '$t' (at least the $n0 processes)" ||
	bad "--threads: '$t', $n0 processes"

# --- the default table on every source: <= 100 characters, no all-"-" column
for src in $("$PTOP" --list-sources | awk '$2 == "ok" { print $1 }'); do
	"$PTOP" -b -n 2 -d 0.2 --no-config --source="$src" >"$tmp/$src" 2>/dev/null ||
		{ bad "$src: exit $?"; continue; }
	# the table: from the header to the sum row
	awk '/^ *PID /, /^ *sum /' "$tmp/$src" >"$tmp/$src.table"
	w=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$tmp/$src.table")
	hdr=$(grep -m1 -E '^ *PID ' "$tmp/$src.table")
	[ "$w" -gt 0 ] && [ "$w" -le 100 ] && ok "$src: table at most 100 characters ($w): '$hdr'" ||
		bad "$src: table $w characters wide"
	# the summary's lines too
	w=$(grep -E '^(up |Tasks: |MiB )' "$tmp/$src" | awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }')
	[ "$w" -gt 0 ] && [ "$w" -le 100 ] && ok "$src: summary lines at most 100 characters ($w)" ||
		bad "$src: summary lines $w characters wide"
	# a column whose cells are all "-" (the header and sum row aside)
	dash=$(awk '/^ *PID / { n = NF; for (i = 1; i <= NF; i++) h[i] = $i; next }
		/^ *sum / || !n { next }
		{ rows++; for (i = 1; i <= n; i++) if ($i == "-") d[i]++ }
		END { for (i = 1; i <= n; i++) if (rows && d[i] == rows) print h[i] }' "$tmp/$src.table")
	[ -z "$dash" ] && ok "$src: no column of '-' only" || bad "$src: columns of '-' only: $dash"
done

# --- the machine formats keep their columns ----------------------------------
h=$("$PTOP" -b -n 1 -d 0.2 --no-config --format=csv --source=procfs | head -1)
[[ $h == *cuser_pct*xuser_pct* ]] && ok "CSV keeps the per-part columns" ||
	bad "CSV header '$h'"

finish batch_summary
