#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rows on screen, from captured screens with their attributes: the
# line above the sum row is a drawn row; the selected row is always one
# drawn (after Downs past the screen, after a click on the last row, at
# the smallest size); F9 names the task drawn selected; the selection
# stays on its task through refreshes, sorting, the tree and dead rows
# coming and going; a terminal too small or without cursor addressing
# gets one line that suggests -b.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

# more tasks than lines: sleepers of our own
kids=()
for i in $(seq 40); do sleep 300 & kids+=($!); done
trap 'kill "${kids[@]}" 2>/dev/null; t_cleanup' EXIT

# the sum row's line (the F-key bar is under it)
sum_line() { pane | grep -nE '^ *sum ' | tail -1 | cut -d: -f1; }
# the selected lines: how many, the first's line number and pid
sel() {
	local s
	s=$(sel_rows)
	nsel=$(grep -c . <<<"$s")
	sel_y=$(head -1 <<<"$s" | cut -f1)
	sel_pid=$(head -1 <<<"$s" | cut -f2 | awk '{print $1}')
}
# wait until one row is drawn selected and it shows pid $1 (any if empty)
sel_is() {
	local i n=$(t_ticks "${2:-3}")
	for ((i = 0; i < n; i++)); do
		sel
		[ "$nsel" = 1 ] && { [ -z "$1" ] || [ "$sel_pid" = "$1" ]; } &&
			return 0
		sleep 0.1
	done
	return 1
}
# wait until one row is drawn selected on line $1: the keys sent before
# are all handled (tmux hands them over at once, ptop may take a while)
sel_on() {
	local i n=$(t_ticks "${2:-5}")
	for ((i = 0; i < n; i++)); do
		sel
		[ "$nsel" = 1 ] && [ "$sel_y" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
row_re='^ *[0-9]+ +[a-z]'

# --- 80x24: the last row, 30 Downs, F9, a click ------------------------------
# -d 300: one short first interval, then the rows stay where they are
start rows 80 24 --no-config --source=procfs -d 300
expect 'accounted [0-9.]+%' "80x24: rows shown" 10
wait_for "$row_re" 5
last=$(sum_line)
above=$(pane | sed -n "$((last - 1))p")
[[ $above =~ $row_re ]] && ok "the line above the sum row is a task row" ||
	bad "the line above the sum row: '$above'"
for i in $(seq 30); do keys Down; done
if sel_is "" && [ "$sel_y" = $((last - 1)) ] && [[ $sel_pid =~ ^[0-9]+$ ]]; then
	ok "after 30 Downs the selection is drawn, on the last row ($sel_pid)"
else bad "after 30 Downs: $nsel rows drawn selected, line '$sel_y' (last row $((last - 1)))"
	pane | sed 's/^/    | /'; fi
keys F9
expect "Send to $sel_pid \\(" "F9 offers the task drawn selected ($sel_pid)"
keys Escape
wait_gone 'Send to'
keys Home
sel_is "" || bad "Home: no row selected"
top_y=$sel_y
# the last drawn row: a click selects it (0-based y is line - 1)
want=$(pane | sed -n "$((last - 1))p" | awk '{print $1}')
click 3 "$((last - 2))"
if sel_is "$want" && [ "$sel_y" = $((last - 1)) ]; then
	ok "a click on the last row selects it ($want)"
else bad "click on the last row: selected '$sel_pid' on line '$sel_y', want $want"; fi
# the sum row is no task: a click there selects nothing else
click 3 "$((last - 1))"
sleep 0.5
sel_is "$want" 1 && ok "a click on the sum row leaves the selection" ||
	bad "a click on the sum row moved the selection to '$sel_pid'"
# PgDn past the end and back: always one row drawn selected
keys NPage NPage End
sel_on $((last - 1)) && [ "$sel_y" -gt "$top_y" ] &&
	ok "End: the last task drawn selected (line $sel_y)" ||
	bad "End: $nsel selected, line '$sel_y'"
tm kill-session -t rows

# --- 100x30 and 200x50: 30 Downs, one row drawn selected, F9 names it ------
for size in "100 30" "200 50"; do
	set -- $size
	start "big$1" "$1" "$2" --no-config --source=procfs -d 300
	wait_for 'accounted [0-9.]+%' 10 && wait_for "$row_re" 5
	keys Home
	sel_is "" || bad "${1}x$2: Home: no row selected"
	# 30 rows down, or the last row when fewer are drawn
	y=$((sel_y + 30)) bottom=$(($(sum_line) - 1))
	[ "$y" -gt "$bottom" ] && y=$bottom
	for i in $(seq 30); do keys Down; done
	if sel_on "$y"; then
		keys F9
		expect "Send to $sel_pid \\(" "${1}x$2: after 30 Downs $sel_pid is drawn selected, F9 names it"
		keys Escape
	else bad "${1}x$2: after 30 Downs $nsel rows drawn selected (line '$sel_y')"; fi
	tm kill-session -t "big$1"
done

# --- the selection follows its task ---------------------------------------
start follow 100 40 --no-config --source=procfs -d 0.4
expect 'accounted [0-9.]+%' "follow: started" 10
# one of our sleepers, picked by typing its pid
me=${kids[20]}
keys $(sed 's/./& /g' <<<"$me")
sel_is "$me" 5 && ok "typing $me selects it" || bad "typing $me: selected '$sel_pid'"
# new tasks sort above it (PID descending), then refreshes
keys N I
expect 'sort PID' "N I: sort by PID, descending"
sel_is "$me" && ok "sorting keeps $me selected" || bad "sort: selected '$sel_pid'"
for i in 1 2 3 4 5; do sleep 300 & kids+=($!); done
sleep 1.5
sel_is "$me" && ok "new tasks above it: $me still selected" ||
	bad "new tasks: selected '$sel_pid', not $me"
keys t
expect 'tree' "t: the tree"
sel_is "$me" && ok "the tree keeps $me selected" || bad "tree: selected '$sel_pid'"
# dead rows come and go above and below it: a sibling branch of short
# tasks (the tree shows the dead by default)
bash -c 'for i in $(seq 150); do /bin/true; sleep 0.01; done' &
churn=$!
moved=0
for i in $(seq 12); do
	sleep 0.25
	sel_is "$me" 1 || { moved=1; break; }
done
wait $churn
[ $moved = 0 ] && ok "dead rows coming and going: $me stays selected" ||
	bad "dead rows: the selection went to '$sel_pid' (line $sel_y), not $me"
tm kill-session -t follow

# --- 80x6: still a row; 80x5: says so; back again ---------------------------
start small 80 6 --no-config --source=procfs -d 300
if sel_is "" 10 && [ "$sel_y" = 5 ]; then ok "80x6: one row, drawn selected"
else bad "80x6: $nsel selected, line '$sel_y'"; pane | sed 's/^/    | /'; fi
keys Down Down Down
sel_is "" && [ "$sel_y" = 5 ] && ok "80x6: Down scrolls, the selection drawn" ||
	bad "80x6 Down: $nsel selected, line '$sel_y'"
tm resize-window -t small -x 80 -y 5
expect 'terminal too small: 80x5.*ptop -b' "80x5: says the terminal is too small"
keys F9
sleep 0.3
tm resize-window -t small -x 80 -y 6
sleep 0.5
pane | grep -q 'Send to' && bad "F9 at 80x5 offered a task not shown" ||
	ok "F9 at 80x5 offers nothing"
sel_is "" && ok "80x6 again: the view is back" || bad "80x6 again: no row"
tm kill-session -t small

# --- refused at start: one line, -b suggested, status 1 ----------------------
start dumb 80 24 env TERM=dumb -- --no-config --source=procfs
wait_exit 10
err=$(cat "$T_TMP/dumb/stderr")
if [ "$rc_of" = 1 ] && [ "$(wc -l <<<"$err")" = 1 ] && [[ $err == *"ptop -b"* ]]; then
	ok "TERM=dumb: status 1, one line: $err"
else bad "TERM=dumb: status '$rc_of', stderr '$err'"; fi
pane | grep -qE 'accounted|^ *sum ' && bad "TERM=dumb drew the view"
start tiny 30 5 --no-config --source=procfs
wait_exit 10
err=$(cat "$T_TMP/tiny/stderr")
if [ "$rc_of" = 1 ] && [[ $err == *"too small: 30x5"*"ptop -b"* ]]; then
	ok "30x5: status 1: $err"
else bad "30x5: status '$rc_of', stderr '$err'"; fi

finish curses_rows
