#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The event panel (E) of the interactive view, in tmux against the real
# binary, on this machine's kernel, which has no ptop_taskstats module: E
# opens a panel below the table that says the module is not loaded (and
# the table stays, with its sum row, above it); E again closes it. Also
# a screen that grows again is repainted whole (tmux fills the new lines
# from its scrollback: without a full repaint they stayed garbled). The
# panel with events is tests/vm/test_events_panel.sh (the module loaded).
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"
if [ -e /sys/module/ptop_taskstats ]; then
	echo "  SKIP: the module is loaded here (the no-module panel is not checked)"
	exit 0
fi

start ev 100 30 --no-config --source=procfs -d 0.5
expect 'accounted [0-9.]+% of' "starts"
keys F1 NPage
expect '^  E +.*event log' "the help lists E"
keys Escape
keys E
expect '^Events \(E: close\)' "E: the panel's title"
expect 'No events: the ptop_taskstats kernel module is not loaded' \
	"E without the module: the panel says the module is not loaded"
# the table stays above the panel: its header, rows and the sum row
title=$(pane | grep -n '^Events ' | head -1 | cut -d: -f1)
sum=$(pane | grep -nE '^ *sum ' | head -1 | cut -d: -f1)
hdr=$(pane | grep -nE '^ *PID +USER' | head -1 | cut -d: -f1)
if [ -n "$title" ] && [ -n "$sum" ] && [ -n "$hdr" ] &&
   [ "$hdr" -lt "$sum" ] && [ "$sum" -lt "$title" ]; then
	ok "the table (header line $hdr, sum line $sum) above the panel (line $title)"
else bad "layout: header '$hdr' sum '$sum' panel '$title'"; pane | sed 's/^/    | /'; fi
rows=$(( sum - hdr - 1 ))
[ "$rows" -ge 3 ] && ok "$rows task rows shown beside the panel" || bad "only $rows rows with the panel"
# the title in reverse video or a colour pair, the reason highlighted
pane -e | grep 'Events (E: close)' | grep -qE $'\e\\[([0-9]+;)*(7|3[0-7]|4[0-7])(;[0-9]+)*m' &&
	ok "the panel's title is highlighted" || bad "the panel's title is plain"
# keys still work with the panel open
keys P
expect 'sort total' "keys work with the panel open"
# a small screen: the panel shrinks, the table keeps its lines
tm resize-window -t "$S" -x 80 -y 12
expect '^Events \(E: close\)' "12 lines: the panel is still there"
pane | grep -qE '^ *sum ' && ok "12 lines: the sum row too" || bad "12 lines: no sum row"
tm resize-window -t "$S" -x 100 -y 30
keys E
wait_gone "^Events " 5 && ok "E again: the panel closes" ||
	{ bad "E again: the panel stays"; pane | sed "s/^/    | /"; }
sum_line() { pane | grep -nE '^ *sum ' | head -1 | cut -d: -f1; }
for i in $(seq 300); do
	last=$(sum_line)
	[ -n "$last" ] && [ "$last" -ge 29 ] && break
	sleep 0.1
done
[ -n "$last" ] && [ "$last" -ge 29 ] && ok "the sum row back on the last line ($last)" ||
	bad "sum row at line '$last' after closing"
keys q
wait_exit 5 && [ "$rc_of" = 0 ] && ok "q: status 0" || bad "q: status '$rc_of'"

finish curses_events
