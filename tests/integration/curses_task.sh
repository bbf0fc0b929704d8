#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The process screen (Enter on a row), at 80x24 and 200x50, on a process
# the test starts (ptop_family: threads, a live child, children that end
# with exit 3, exit 7 and SIGTERM): it shows the pid and command line,
# its threads and children, each exited child with its exit status and
# the CPU time wait4 gave for it; its history grows with the intervals;
# its own + x* over the intervals kept is the kernel's utime + stime of
# the process (/proc/PID/stat) within the source's tolerance; Escape
# returns with the same row selected; a process killed while its screen
# is open is said to have exited and nothing crashes; every label the
# screen draws is explained in the help.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
FAM=${FAM:-$B/tests/helpers/ptop_family}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"
[ -x "$FAM" ] || { echo "FAIL: $FAM not built"; exit 1; }

# exit statuses need a source with exit records: taskstats as root
src=procfs
"$PTOP" --list-sources 2>/dev/null | grep -qE '^taskstats_nl +ok' && src=taskstats_nl
hz=$(getconf CLK_TCK)

go=$T_TMP/go
out=$T_TMP/family.out
"$FAM" "$go" >"$out" &
fam=$!
sleeper=
trap 'kill $fam $sleeper 2>/dev/null; t_cleanup' EXIT

# the selected lines' first pid (black on cyan, as tests/helpers/tmux.sh)
sel_pid() { sel_rows | head -1 | cut -f2 | awk '{print $1}'; }
sel_is() {
	local i n=$(t_ticks "${2:-3}")
	for ((i = 0; i < n; i++)); do
		[ "$(sel_pid)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# "sum of N intervals": N now
nint() { pane | sed -n 's/^sum of \([0-9]*\) intervals.*/\1/p'; }
# wait until N reaches $1
nint_reaches() {
	local i n=$(t_ticks "${2:-5}") v
	for ((i = 0; i < n; i++)); do
		v=$(nint)
		[ -n "$v" ] && [ "$v" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# |a - b| <= tol, in seconds
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# --- 80x24: open on the family before it starts -------------------------------
start task 80 24 --no-config --source=$src -d 0.5
expect 'accounted [0-9.]+%' "80x24: started ($src)" 10
keys $(sed 's/./& /g' <<<"$fam")
sel_is "$fam" 5 && ok "typing $fam selects it" || bad "typing $fam: selected '$(sel_pid)'"
keys Enter
expect "^ptop process $fam \\(fam-parent\\) +live" "Enter: the process screen of $fam"
expect "^command: .*ptop_family $go" "the command line"
expect "^pid $fam  ppid $$ " "pid and parent"
nint_reaches 1 5
n0=$(nint)
nint_reaches $((n0 + 2)) 10 && ok "the history grows: $n0, then $(nint) intervals" ||
	bad "the history stays at '$(nint)' intervals"
hist_lines() { pane | grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+'; }
[ "$(hist_lines)" -ge 2 ] && ok "a bar line per interval ($(hist_lines) drawn)" ||
	bad "history lines: $(hist_lines)"

# --- the family runs: threads, children, exits ----------------------------------
touch "$go"
for ((i = 0; i < $(t_ticks 60); i++)); do
	grep -q '^quiet' "$out" && break
	sleep 0.1
done
grep -q '^quiet' "$out" || { bad "the family never finished"; cat "$out"; }
sleeper=$(awk '/^sleeper/ {print $2}' "$out")
# two more intervals: the last exit and a quiet interval are in the history
n1=$(nint)
nint_reaches $((n1 + 3)) 10 || bad "no interval after the family went quiet"
# (tids in tid order: after a pid wrap the main thread may not come first)
expect "^threads 2: .* $fam S [0-9.]+" "threads: the process's two live threads"
expect "^live children 1: +$sleeper S fam-sleep" "live children: fam-sleep ($sleeper)"
[ $src = taskstats_nl ] && expect "^exited children 3:  [0-9]+ fam-kid \\[signal 15\\]" \
	"exited children: the last one first, killed by SIGTERM"
# enough intervals that 80x24 cannot show them all
nint_reaches 12 10
h80=$(hist_lines)
tm resize-window -t task -x 200 -y 50
if [ $src = taskstats_nl ]; then
	expect '^exited children 3:' "200x50: three exited children"
	while read -r _ kpid st ns; do
		if [ $((st & 127)) != 0 ]; then want="\\[signal $((st & 127))\\]"
		else want="\\[exit $((st >> 8))\\]"; fi
		got=$(pane | grep -oE "(^|  )$kpid fam-kid $want [0-9.]+ s" | awk '{print $(NF - 1)}')
		if [ -z "$got" ]; then
			bad "exited child $kpid: no '$kpid fam-kid $want'"; pane | sed 's/^/    | /'
		elif near "$got" "$(awk -v n="$ns" 'BEGIN { print n / 1e9 }')" 0.012; then
			ok "exited child $kpid: ${want//\\/}, $got s as wait4 ($ns ns)"
		else bad "exited child $kpid: $got s, wait4 $ns ns"; fi
	done < <(grep '^kid' "$out")
else
	expect '^exited children: - ' "exited children: - (procfs sees no exits)"
fi
# own + x* over the intervals kept: the whole life but its first
# instants (it was followed before it started), vs the kernel's counter
read -r ut st < <(awk '{print $14, $15}' "/proc/$fam/stat")
kern=$(awk -v u="$ut" -v s="$st" -v hz="$hz" 'BEGIN { printf "%.3f", (u + s) / hz }')
line=$(pane | grep -E '^sum of [0-9]+ intervals')
own=$(sed -n 's/.* own \([0-9.]*\) s .*/\1/p' <<<"$line")
x=$(sed -n 's/.* x\* \([0-9.]*\) s .*/\1/p' <<<"$line")
c=$(sed -n 's/.* c\* \([0-9.]*\) s .*/\1/p' <<<"$line")
# ticks: each of utime and stime is cut to a tick; 2% the source's bound
tol=$(awk -v k="$kern" -v hz="$hz" 'BEGIN { printf "%.3f", 3 / hz + 0.02 * k }')
if [ -n "$own" ] && [ -n "$x" ] &&
   near "$(awk -v a="$own" -v b="$x" 'BEGIN { print a + b }')" "$kern" "$tol"; then
	ok "sum of the intervals: own $own + x* $x s = utime + stime $kern s (within $tol)"
else bad "sum of the intervals: '$line' vs utime + stime $kern s"; fi
waited=$(awk '/^kid/ { s += $4 } END { printf "%.3f", s / 1e9 }' "$out")
if [ -n "$c" ] && awk -v c="$c" -v w="$waited" 'BEGIN { exit !(c <= w + 0.012) }'; then
	ok "c* $c s: at most what wait4 gave for the children ($waited s)"
else bad "c* '$c' vs wait4 $waited s"; fi
life=$(pane | sed -n 's/^since start (age [^)]*): own+x\* \([0-9.]*\) s.*/\1/p')
near "${life:-x}" "$kern" "$tol" && ok "since start: own+x* $life s = utime + stime $kern s" ||
	bad "since start '$life' vs $kern s"
[ "$h80" -ge 2 ] && [ "$(hist_lines)" -gt "$h80" ] &&
	ok "200x50: more history ($(hist_lines) lines, $h80 at 80x24)" ||
	bad "200x50: $(hist_lines) history lines, $h80 at 80x24"

# the bars: own user (|) while it burned, c* (*) when its children died
bars=$(pane | grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+ ')
grep -qE ' [0-9.]+ \|+' <<<"$bars" && grep -qE ' [0-9.]+ [|#]*\*+' <<<"$bars" &&
	ok "bars of own user (|) and c* (*) in the history" ||
	{ bad "no bar of user or of c*"; sed 's/^/    | /' <<<"$bars"; }

# --- every label on the screen is in the help ------------------------------------
screen=$(pane | grep -vE '^command: |^[0-9]{2}:' |
	sed -E "s/\\([^)]*\\)//; s/fam-[a-z]+//g; s/ user [a-z_][a-z0-9_-]*/ user /")
keys F1
expect 'help +lines 1-49 of [0-9]+' "F1 from the process screen: the help"
total=$(pane | sed -n 1p | grep -oE 'of [0-9]+' | awk '{print $2}')
help=$(pane | sed 1d)
top=1
while [ $((top + 48)) -lt "${total:-0}" ]; do
	keys NPage
	prev=$top
	for i in $(seq 50); do
		top=$(pane | sed -n 1p | grep -oE 'lines [0-9]+' | awk '{print $2}')
		[ "$top" != "$prev" ] && break
		sleep 0.1
	done
	[ "$top" != "$prev" ] || { bad "PgDn did not scroll the help"; break; }
	help+=$'\n'$(pane | sed 1d)
done
flat=$(tr -s ' \n' '  ' <<<"$help")
n=0
while read -r w; do
	grep -qiF -- "$w" <<<"$flat" && continue
	bad "'$w' is on the process screen but not in the help"; n=$((n + 1))
done < <(grep -oE '[A-Za-z][A-Za-z*+-]*' <<<"$screen" | grep -E '^.{2,}$' | sort -u)
[ $n = 0 ] && ok "every label of the process screen is in the help"
grep -qF 'The process screen (Enter on a row' <<<"$flat" && grep -qE 'Enter +the process screen' <<<"$help" &&
	ok "the help lists Enter and explains the screen" || bad "the help lacks Enter or the screen"

# --- Escape: back to the help's caller, then to the table, the same row selected ---
keys Escape
expect "^ptop process $fam " "Escape from the help: the process screen again"
keys Escape
wait_gone '^ptop process ' && ok "Escape: back to the table" || bad "Escape: still the process screen"
sel_is "$fam" 3 && ok "the same row selected ($fam)" || bad "after Escape: '$(sel_pid)' selected"
keys q
wait_exit 5 && [ "$rc_of" = 0 ] && ok "q: ptop exits 0" || bad "q: exit '$rc_of'"

# --- the task exits while its screen is open ----------------------------------------
start gone 80 24 --no-config --source=$src -d 0.4
expect 'accounted [0-9.]+%' "80x24 again: started" 10
keys $(sed 's/./& /g' <<<"$fam")
sel_is "$fam" 5 || bad "typing $fam: selected '$(sel_pid)'"
keys Enter
expect "^ptop process $fam .* live" "the process screen of $fam"
kill -9 $fam
wait $fam 2>/dev/null
if [ $src = taskstats_nl ]; then
	expect "^ptop process $fam \\(fam-parent\\) +exited \\[signal 9\\]" "killed: the title says exited [signal 9]"
	expect "process $fam exited \\[signal 9\\] while shown" "and the last line says so"
else
	expect "^ptop process $fam .* gone" "killed: the title says gone"
fi
expect 'last interval: no row' "the last interval has no row"
nint_reaches $(( $(nint) + 2 )) 10 && ok "intervals go on with the screen open" ||
	bad "no interval after the exit"
kill -0 "$(ptop_pid)" 2>/dev/null && ok "ptop runs on" || bad "ptop died"
keys Escape
wait_gone '^ptop process ' && expect 'accounted [0-9.]+%' "Escape: the table" ||
	bad "Escape after the exit: $(pane | head -3)"
keys q
wait_exit 5 && [ "$rc_of" = 0 ] && ok "q: ptop exits 0" || bad "q: exit '$rc_of'"

finish curses_task
