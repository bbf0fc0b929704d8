#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# COMMAND fills the width: at 80x24, 100x30 and 200x50 a task with a
# command line longer than the screen has its row drawn to the last
# column, COMMAND showing the start of its command line as
# /proc/PID/cmdline has it (also in the tree); p shows the command name
# instead, and p again the command line.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

cp "$(command -v bash)" "$T_TMP/ptopwide"
long=$(printf 'argument%02d ' $(seq 40))
"$T_TMP/ptopwide" -c "sleep 600; : $long END" &
wide=$!
sleeper=
trap 'kill $wide $sleeper 2>/dev/null; t_cleanup' EXIT
for i in $(seq 100); do
	sleeper=$(pgrep -P $wide sleep)
	[ -n "$sleeper" ] && break
	sleep 0.1
done
cmd=$(tr '\0' ' ' < /proc/$wide/cmdline)
cmd=${cmd% }

row() { pane | grep -E "^ *$wide " | head -1; }
# the row reaches the last column, and COMMAND (where the header has it,
# after the tree's lines if any) is the start of the command line
fills() {
	local w=$1 r c at want
	r=$(row)
	c=$(pane | grep -E '^ *PID ' | head -1)
	c=${c%%COMMAND*}
	at=${#c}
	[ "${#r}" = "$w" ] || { echo "row ${#r} wide, not $w: '$r'"; return 1; }
	want=${cmd:0:$((w - at))}
	got=${r:$at}
	got=${got#"${got%%[!├└│─ ]*}"}	# the tree's lines
	[[ $want == "$got"* ]] || { echo "COMMAND '$got', want the start of '$want'"; return 1; }
}

for size in 80x24 100x30 200x50; do
	w=${size%x*} h=${size#*x}
	start "w$w" "$w" "$h" --no-config --source=procfs -d 300
	expect 'accounted [0-9.]+%' "$size: started" 10
	keys F4 p t o p w i d e Enter
	expect "^ *$wide " "$size: the long command's row"
	if why=$(fills "$w"); then ok "$size: its command line fills the width"
	else bad "$size: $why"; fi
	keys p
	if wait_for "^ *$wide .* ptopwide *$" 3; then
		ok "$size: p: the command name"
	else bad "$size: p: '$(row)'"; fi
	keys p
	wait_gone "^ *$wide .* ptopwide *$" 3
	if why=$(fills "$w"); then ok "$size: p again: the command line, to the edge"
	else bad "$size: p again: $why"; fi
	keys t
	expect '  tree' "$size: t: the tree"
	if why=$(fills "$w"); then ok "$size: in the tree too"
	else bad "$size: tree: $why"; fi
	keys q
	wait_exit 5
done

finish curses_width
