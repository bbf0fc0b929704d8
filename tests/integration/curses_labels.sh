#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the view says fits 80 columns and is explained: the source's note
# at start is whole (wrapped); the help, read whole by scrolling it at
# 80x24, has every column's meaning uncut; the top line ends in its
# whole verdict at 80 columns with and without the meters; every label
# drawn on the screen (top line, meters, legend,
# status, system line, column header, the sum row) is in the help, and
# so is every label the view can draw (over, unacc, the verdict's
# reasons); F2 and --list-columns show each column's header beside its
# name (c* beside cdead).
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

# --- the start-up note whole at 80x24; the help paged through whole ---------
note=$("$PTOP" -b -n 1 -d 0.1 --no-config --source=procfs 2>/dev/null |
	sed -n 's/^# //p' | head -1)
start help 80 24 --no-config --source=procfs -d 300
expect 'accounted [0-9.]+%' "started" 10
if [ -n "$note" ] && pane | tr -s ' \n' '  ' | grep -qF -- "$(tr -s ' ' <<<"$note")"; then
	ok "the source's note is whole at 80 columns"
else bad "the note '$note' is cut"; pane | sed 's/^/    | /'; fi
keys F1
expect 'help +lines 1-23 of [0-9]+' "F1: help, lines 1-23"
total=$(pane | sed -n 1p | grep -oE 'of [0-9]+' | awk '{print $2}')
help=$(pane | sed 1d)
top=1
while [ $((top + 22)) -lt "$total" ]; do
	keys NPage
	prev=$top
	for i in $(seq 50); do
		top=$(pane | sed -n 1p | grep -oE 'lines [0-9]+' | awk '{print $2}')
		[ "$top" != "$prev" ] && break
		sleep 0.1
	done
	[ "$top" != "$prev" ] || { bad "PgDn did not scroll the help (at $top)"; break; }
	help+=$'\n'$(pane | sed 1d)
done
pane | grep -q "lines $((total - 22))-$total of $total" && ok "PgDn reaches the help's end ($total lines)" ||
	bad "PgDn: the help's end not shown"
keys Up
expect "lines $((total - 23))-$((total - 1)) of $total" "Up scrolls back a line"
keys q
wait_gone 'help +lines'
# the help as words, lines joined (a wrapped line continues the last)
flat=$(tr -s ' \n' '  ' <<<"$help")
missing=0
while read -r name head unit text; do
	[ "$name" = STATE ] && text="$unit $text"	# no unit
	t=$(tr -s ' ' <<<"$text")
	if ! grep -qF -- "$t" <<<"$flat"; then
		bad "the help lacks or cuts column $name: '$t'"
		missing=1
	fi
done < <("$PTOP" --list-columns)
[ $missing = 0 ] && ok "every column's meaning is in the help, uncut"
grep -qF "search: jumps to the next COMMAND or USER with the text as you type; F3 again: the next" <<<"$flat" &&
	ok "a long key's help is whole" || bad "a long key's help is cut"

# --- every label on screen is in the help ------------------------------------
# the words of a screen's labels: not the rows (pids, names, figures)
labels() {
	pane | awk '
		/^ *PID / { hdr = 1; print; next }
		hdr && /^ *[0-9]+ / { next }
		{ print }' |
		sed -E 's/F[0-9]+/ /g' |	# the F-key bar: F1Help F2Setup ..
		grep -oE '[A-Za-z][A-Za-z*+:/-]*' | sed 's/[:/]$//' |
		grep -E '^.{2,}$|^S$' | sort -u
}
check_labels() {
	local what=$1 w n=0
	while read -r w; do
		case $w in procfs|root) continue ;; esac
		grep -qiF -- "$w" <<<"$flat" && continue
		bad "$what: '$w' is on the screen but not in the help"
		pane | grep -F -- "$w" | sed 's/^/    | /'
		n=$((n + 1))
	done < <(labels)
	[ $n = 0 ] && ok "$what: every label drawn is in the help"
}
keys C-l	# the start-up note away: the status line
wait_gone 'clock-tick'
check_labels "80x24"
for w in over unacc exited in-tasks 'c*' 'x*' sum first lost clamped unfolded \
	 slow 'exit paths' late off accounted tagged follow PAUSED; do
	grep -qF -- "$w" <<<"$flat" || { bad "the help does not explain '$w'"; missing=1; }
done
[ $missing = 0 ] && ok "the help explains the labels that come and go"

# the top line: within 80 columns, the verdict whole (not "accounte")
verdict_whole() { pane | sed -n 1p | grep -qE '(exact|[0-9]%|ms|[0-9]|events|[0-9] s\)|not accounted) *$'; }
verdict_whole && ok "80x24: the top line ends in its verdict" ||
	bad "80x24: top line '$(pane | sed -n 1p)'"
tm resize-window -t help -x 80 -y 12
expect '^idle [0-9.]+%' "80x12: the system line instead of the meters"
if pane | sed -n 1p | grep -q 'accounted [0-9.]*%' && verdict_whole; then
	ok "80x12: the top line has accounted and its verdict whole"
else bad "80x12: top line '$(pane | sed -n 1p)'"; fi
check_labels "80x12"

# --- one name per idea: the header beside the name -----------------------------
"$PTOP" --list-columns | grep -qE '^cdead +c\* ' && "$PTOP" --list-columns | grep -qE '^xdead +x\* ' &&
	ok "--list-columns: cdead c*, xdead x*" || bad "--list-columns lacks the headers"
tm resize-window -t help -x 100 -y 40
keys P '>' '>'
expect 'sort c\* \(cdead\)' "the status line: sort c* (cdead), the header and the name"
keys F6
expect 'cdead +c\* +cuser' "F6: cdead with its header c*"
keys Escape P
keys F2
expect '\[.\] cdead +c\* +\(%\)' "F2: cdead shown with its header c*"
keys Escape

finish curses_labels
