#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htop's bar of function keys on the bottom line, at 80x24, 100x30 and
# 200x50: all ten keys drawn whole, under the sum row; a click on a key
# presses it (F1 help, F3 search, F5 tree and back, F6 sort menu, F9
# signal menu, F10 quits); fkeys=0 in ptoprc and F2's switch hide it,
# and the rows take its line.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

bar_re='^F1Help +F2Setup +F3Search ?F4Filter ?F5(Tree|List) +F6SortBy ?F7Nice - ?F8Nice \+ ?F9Kill +F10Quit *$'
last_line() { pane | sed -n "${1}p"; }
# x of a key's label on the bar (0-based): where "Fn" + the label starts
key_x() { last_line "$1" | grep -boE "F$2[A-Z]" | head -1 | cut -d: -f1; }

for size in 80x24 100x30 200x50; do
	w=${size%x*} h=${size#*x}
	start "bar$w" "$w" "$h" --no-config --source=procfs -d 300
	expect 'accounted [0-9.]+%' "$size: started" 10
	if wait_for '^ *sum ' 5 && last_line "$h" | grep -qE "$bar_re"; then
		ok "$size: the F-key bar on the last line, whole"
	else bad "$size: last line '$(last_line "$h")'"; fi
	sum=$(pane | grep -nE '^ *sum ' | tail -1 | cut -d: -f1)
	[ "$sum" = $((h - 1)) ] && ok "$size: the sum row just above it" ||
		bad "$size: the sum row on line '$sum', want $((h - 1))"
	# a click on F1's label: the help
	click $(($(key_x "$h" 1) + 3)) $((h - 1))
	expect 'help +lines 1-' "$size: a click on F1 opens the help"
	keys q
	wait_gone 'help +lines'
	click $(($(key_x "$h" 5) + 3)) $((h - 1))
	if wait_for '  tree' 3 && last_line "$h" | grep -q 'F5List'; then
		ok "$size: a click on F5: the tree, and F5 says List"
	else bad "$size: F5 click: '$(last_line "$h")'"; fi
	click $(($(key_x "$h" 5) + 3)) $((h - 1))
	wait_gone 'F5List' 3 && ok "$size: F5 again: back to the list" ||
		bad "$size: still the tree after a second click on F5"
	keys q
	wait_exit 5
done

# the clicks that open a screen; F10 quits
start clicks 100 30 --no-config --source=procfs -d 300
expect 'accounted [0-9.]+%' "100x30: started" 10
wait_for "$bar_re" 5
click $(($(key_x 30 3) + 3)) 29
expect '^search \(F3: next\):' "a click on F3: the search prompt"
keys Escape
click $(($(key_x 30 6) + 3)) 29
expect 'Sort by' "a click on F6: the sort menu"
keys Escape
wait_gone 'Sort by'
keys Down
click $(($(key_x 30 9) + 3)) 29
expect 'Send to [0-9]+ \(' "a click on F9: the signal menu for the selected task"
keys Escape
wait_gone 'Send to'
click $(($(key_x 30 10) + 3)) 29
wait_exit 5 && ok "a click on F10 quits (status $rc_of)" || bad "F10 click: still running"

# hidden: by the config file, and by F2's switch
mkdir -p "$T_TMP/cfg/ptop"
printf 'version=1\nfkeys=0\n' > "$T_TMP/cfg/ptop/ptoprc"
XDG_CONFIG_HOME=$T_TMP/cfg start nobar 80 24 --source=procfs -d 300
expect 'accounted [0-9.]+%' "fkeys=0: started" 10
wait_for '^ *sum ' 5
if ! pane | grep -qE 'F1Help'; then
	sum=$(pane | grep -nE '^ *sum ' | tail -1 | cut -d: -f1)
	[ "$sum" = 24 ] && ok "fkeys=0: no bar, the sum row on the last line" ||
		bad "fkeys=0: the sum row on line '$sum'"
else bad "fkeys=0: the bar is drawn"; fi
keys F2 Tab End
expect '\[ \] the F-key bar' "F2 Meters: the bar's switch, off"
keys ' ' Enter
expect "$bar_re" "F2: Space and Enter show the bar again"
keys q
wait_exit 5
# a bad value is refused and changes nothing
printf 'version=1\nfkeys=maybe\n' > "$T_TMP/cfg/ptop/ptoprc"
out=$(XDG_CONFIG_HOME=$T_TMP/cfg "$PTOP" -b -n 1 -d 0.1 --source=procfs 2>&1 >/dev/null)
grep -q "bad value 'maybe' for fkeys" <<<"$out" && ok "fkeys=maybe: refused, with the reason" ||
	bad "fkeys=maybe: '$out'"

finish curses_fkeys
