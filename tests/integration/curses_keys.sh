#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The interactive view as an htop user tries it, in tmux against the real
# binary: the 80x24 default layout, the header meters (the All bar's parts
# make ncpu x 100%), htop's keys (F1-F10, P M T, Space U c, K H u, + -, F,
# F7/F8 nice, F9 signal), the mouse (a header click sorts, a row click
# selects, the wheel scrolls), tree lines and collapse, a short-lived
# process shown as a dimmed row, the filter prompt's cursor keys, history
# and UTF-8, and NO_COLOR.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"
ncpu=$(nproc)

# the line number (1-based) of the column header
hdr_line() { pane | grep -nE '^ *PID ' | head -1 | cut -d: -f1; }

# --- 80x24, the defaults ---------------------------------------------------
start main 80 24 --no-config --source=procfs -d 0.5
expect 'accounted [0-9.]+% of' "starts with the All bar"
h=$(pane | grep -E '^ *PID ' | head -1)
if [[ $h =~ ^\ *PID\ +USER\ +S\ +total\ +own\ +c\*\ .*TIME\ COMMAND\ *$ ]]; then
	ok "80x24: PID USER S total own c* .. TIME COMMAND, COMMAND last and visible"
else bad "80x24 header: '$h'"; fi
# x: the folded columns as their parts; ste (procfs has no steal) hidden
keys x
if wait_for '^ *PID +USER +S +total +user +sys +cuser +csys' 3; then
	ok "x: own and c* expanded to their parts"
else bad "x: header '$(pane | grep -E '^ *PID ' | head -1)'"; fi
pane | grep -E '^ *PID ' | grep -qw ste && bad "ste shown though procfs cannot fill it" ||
	ok "ste (procfs cannot fill it) hidden by default"
keys x
expect '^ *PID +USER +S +total +own' "x again: folded"
pane | grep -E '^ *[0-9]+ ' | grep -q ' - ' && bad "a '-' cell in the default layout" ||
	ok "no '-' cells in the default layout"

# meters: per-CPU bars, memory, swap, tasks, load, uptime
n=$(pane | grep -cE '^ *[0-9]+\[')
want=$(( ncpu <= 8 ? ncpu : 8 ))
[ "$n" -ge "$want" ] && ok "per-CPU bars: $n for $ncpu CPUs" || bad "$n CPU bars for $ncpu CPUs"
pane | grep -q 'Mem\[' && pane | grep -q 'Swp\[' && ok "memory and swap bars" || bad "no Mem/Swp bars"
pane | grep -qE 'Tasks: [0-9]+, [0-9]+ thr; [0-9]+ running' && ok "task counts" || bad "task counts"
pane | grep -qE 'Load average: [0-9.]+ [0-9.]+ [0-9.]+' && pane | grep -qE 'Uptime: ' && ok "load and uptime" || bad "load, uptime"
# the verdict: exact, or inexact with its reasons (lib/verdict.c's words)
# (one capture: the next interval may say otherwise)
scr=$(pane)
if grep -qE 'accounted [0-9.]+% of [0-9.]+%  exact$' <<<"$scr"; then
	ok "the All bar says exact"
elif grep -qE 'accounted [0-9.]+% of [0-9.]+%  within$' <<<"$scr" &&
     sed -n 1p <<<"$scr" | grep -qE '  within ±[0-9.]+% \('; then
	ok "the All bar says within, the top line the bound: $(sed -n 1p <<<"$scr" | grep -oE 'within .*')"
elif grep -qE 'accounted [0-9.]+% of [0-9.]+%  inexact$' <<<"$scr" &&
     sed -n 1p <<<"$scr" | grep -qE '  inexact: [a-z]+'; then
	ok "the All bar says inexact, the top line why: $(sed -n 1p <<<"$scr" | grep -oE 'inexact: .*')"
else bad "no verdict on the All bar"; fi
# the All bar's parts add up to ncpu x 100% (each shown with 2 decimals;
# wide enough for every part)
tm resize-window -t "$S" -x 160 -y 24
wait_for '^user [0-9.]+ .*exited [0-9]+' 3
legend=$(pane | grep -E '(^| )user [0-9.]+ +sys' | head -1)
sum=$(awk '{ s = 0; for (i = 1; i < NF; i++) if ($i ~ /^(user|sys|steal|c\*|x\*|irq|unacc|idle)$/) s += $(i + 1); printf "%.2f", s }' <<<"$legend")
if awk -v s="$sum" -v c="$ncpu" 'BEGIN { d = s - c * 100; exit !(d < 0.05 && d > -0.05) }'; then
	ok "the All bar's parts sum to $sum% = $ncpu x 100% ($legend)"
elif [[ $legend == *over* ]]; then
	ok "accounted more than the capacity, and says so ($legend)"
else bad "the All bar's parts sum to $sum%, not $ncpu x 100%: '$legend'"; fi

tm resize-window -t "$S" -x 80 -y 24
expect '^ *PID +USER .*COMMAND *$' "back at 80 columns"

# --- keys -----------------------------------------------------------------
keys F1
expect 'Keys \(htop' "F1: help"
expect 'F10 q +quit' "help lists F10"
keys Escape
keys F2
expect '^Setup: \[Columns\]' "F2: setup"
expect 'PID +[(]#[)] +process id' "setup: columns with their help"
keys Tab
expect 'header meters' "setup: the meters section"
keys Escape
keys F6
expect 'Sort by' "F6: the sort menu"
keys Escape
keys P
expect 'sort total' "P: sort by total"
keys M
expect 'sort RSS' "M: sort by RSS"
keys T
expect 'sort TIME' "T: sort by TIME"
keys j
expect "'j' does nothing here" "an unbound key says so"
keys K
expect 'kernel threads hidden' "K: kernel threads hidden"
pane | grep -qE ' (kworker|ksoftirqd|kthreadd)' && bad "K: kernel threads still shown" ||
	ok "K: no kernel thread rows"
keys K
# the status line: which rows show kernel threads depends on the machine
# (sorted by TIME, a busy machine's own tasks can fill the screen)
expect 'kernel threads shown' "K again: kernel threads back" 3
keys Space
expect '1 tagged' "Space: tags"
keys U
wait_gone 'tagged' 3 && ok "U: untagged all" || bad "U: still tagged"
keys u
expect 'Show the tasks of' "u: the user menu"
keys Down Enter
expect 'user root' "u: only root's tasks"
keys u Home Enter
wait_gone 'user root' 3 && ok "u: all users again" || bad "u: still one user"
keys H
expect 'threads' "H: threads"
keys H
expect 'processes' "H: processes again" 3

# F7/F8 nice and F9 signal on a victim of our own
cp "$(command -v sleep)" "$T_TMP/ptopniceme"
# SIGHUP as by default even under nohup (ignored signals are inherited)
env --default-signal=HUP "$T_TMP/ptopniceme" 300 &
victim=$!
keys F4
keys p t o p n i c e m e
expect "^ *$victim " "F4: the filter is live (no Enter)"
keys Enter
expect "filter 'ptopniceme'" "Enter keeps the filter"
expect "[0-9] /tmp/ptop_tmux\\." "COMMAND shows the full command line (its path) by default"
keys p
expect "command name" "p: the command name"
expect "[0-9] ptopniceme" "p: COMMAND is the name"
keys p
expect "[0-9] /tmp/ptop_tmux\\." "p again: the full command line"
# relative to the nice the victim inherited (CI may itself run niced)
n0=$(awk '{print $19}' /proc/$victim/stat)
keys F8
expect "nice of $victim now $((n0 + 1))" "F8: nice +1 (from $n0)"
[ "$(awk '{print $19}' /proc/$victim/stat)" = $((n0 + 1)) ] &&
	ok "F8: the victim's nice is $((n0 + 1))" ||
	bad "F8: nice is $(awk '{print $19}' /proc/$victim/stat), not $((n0 + 1))"
keys F7
expect "nice of $victim now $n0" "F7: nice -1"
keys F
expect "follow $victim" "F: follow"
keys F
keys F9
expect "Send to $victim \\(ptopniceme\\)" "F9: the signal menu names the target"
keys 1 Enter
expect "sent SIGHUP to $victim" "F9: SIGHUP sent (1 typed)"
wait $victim 2>/dev/null
[ $? = 129 ] && ok "the victim died of SIGHUP" || bad "victim status not 129"

# the filter prompt: cursor keys, history (libedit), UTF-8
keys F4 C-u p t p Left o
expect 'filter \(Tab: regex\): ptop' "prompt: Left then typing inserts before the cursor"
keys Enter
keys F4 C-u
expect 'filter \(Tab: regex\): *$' "prompt: Ctrl-U empties it"
keys Up
expect 'filter \(Tab: regex\): ptop' "prompt: Up gives the last filter (history)"
keys C-a
tm send-keys -t "$S" -l 'ü'
expect 'filter \(Tab: regex\): üptop' "prompt: Ctrl-A, then UTF-8 typed at the start"
keys C-a Delete C-e BSpace
expect 'filter \(Tab: regex\): pto *$' "prompt: Delete and Backspace remove one character each"
keys Escape
expect "filter 'ptop'" "Esc goes back to the filter before"
keys F4 C-u Enter
expect 'processes +[0-9]+ rows' "an empty filter clears" 3

# --- the mouse (paused: the rows stay where they are) -----------------------
keys N Z
expect 'sort PID \(ascending\).*PAUSED' "N: sort by PID; Z: paused"
y=$(( $(hdr_line) - 1 ))
x=$(pane | sed -n "$((y + 1))p" | grep -bo 'TIME' | head -1 | cut -d: -f1)
click "$((x + 1))" "$y"
expect 'sort TIME' "a click on TIME's title sorts by TIME"
click "$((x + 1))" "$y"
expect 'sort TIME \(ascending\)' "a second click reverses"
keys P
expect 'sort total .*PAUSED' "P while paused"
line3=$(pane | sed -n "$((y + 4))p")
pid3=$(awk '{print $1}' <<<"$line3")
click 3 "$((y + 3))"
keys F
expect "follow $pid3" "a click on the third row selects it (pid $pid3)"
keys F
# each key's screen before the next look (a loaded machine redraws late)
wait_gone 'follow [0-9]+'
mouse 65 3 "$((y + 3))"
mouse 65 3 "$((y + 3))"
keys F
wait_for 'follow [0-9]+'
sel=$(pane | grep -oE 'follow [0-9]+' | awk '{print $2}')
line9=$(pane | sed -n "$((y + 10))p" | awk '{print $1}')
[ -n "$sel" ] && [ "$sel" != "$pid3" ] && ok "the wheel scrolls the selection (now $sel)" ||
	bad "wheel: selection '$sel'"
keys F

# htop's 0-9: a typed pid selects its row
keys 1
expect '^pid 1$' "1: pid 1 selected, said in the status line"
keys F
expect 'follow 1 ' "F then follows pid 1 (the typed row is the selection)"
keys F
keys 9 9 9 9 9 9 9 9
expect 'pid 99999999: not shown' "a pid not shown is said so"

# --- the tree ---------------------------------------------------------------
keys N Home
expect '^ +2 .* kthreadd' "after K twice, sorted by PID: kthreadd (pid 2) shown again"
keys t
expect 'tree' "t: tree"
# at the top (pid 1's children at depth 1): deeper down, a busy machine's
# deep trees push the names past 80 columns
keys Home
expect '(├|└)─ [^─]' "tree lines"
expect '│ (├|└)─ ' "continuation lines under a branch"
keys Home
n1=$(pane | grep -oE '[0-9]+ rows' | head -1 | awk '{print $1}')
keys -
expect '^ +1 .* \+ [/a-z]' "-: the first branch collapsed, marked +"
n2=$(pane | grep -oE '[0-9]+ rows' | head -1 | awk '{print $1}')
[ -n "$n1" ] && [ -n "$n2" ] && [ "$n2" -lt "$n1" ] && ok "collapse: $n1 -> $n2 rows" ||
	bad "collapse rows $n1 -> $n2"
expect 'branch 1: [0-9.]+%' "the branch's total in the status line"
keys +
wait_gone '^ +1 .* \+ [a-z]' 3 && ok "+: expanded" || bad "+: still collapsed"
keys c
expect '[0-9]+ tasks tagged' "c: the branch tagged"
keys U F10
wait_exit 5 && [ "$rc_of" = 0 ] && ok "F10: quits, status 0" || bad "F10: status '$rc_of'"

# --- dead tasks as dimmed rows (a source with exit records) ------------------
if "$PTOP" --list-sources | grep -Eq '^(kmod_proc|kmod_nl|taskstats_nl) +ok'; then
	cp "$(command -v bash)" "$T_TMP/ptopshort"
	( for i in $(seq 200); do
		"$T_TMP/ptopshort" -c 'for ((i = 0; i < 20000; i++)); do :; done'
		sleep 0.2
	  done ) &
	loop=$!
	start dead 120 30 --no-config -d 0.5 --tree
	expect 'accounted' "tree view with a source that sees exits"
	keys F4 p t o p s h o r t Enter
	expect 'ptopshort \[exit 0\]' "a short-lived process shows as a row with its exit status" 8
	# (dead rows come and go with each interval: look at a few screens)
	dim=
	for i in $(seq 40); do
		if pane -e | grep 'ptopshort \[exit 0\]' |
		   grep -qE $'\e\\[([0-9]+;)*2(;[0-9]+)*m'; then dim=1; break; fi
		sleep 0.2
	done
	[ -n "$dim" ] && ok "the dead row is dimmed" ||
		{ bad "the dead row is not dimmed"; pane -e | grep ptopshort | cat -v | head -3; }
	keys D
	expect 'hidden in the tree' "D: dead rows off"
	wait_gone '\[exit 0\]' 3 && ok "D: no dead rows" || bad "D: dead rows still shown"
	kill $loop 2>/dev/null; wait $loop 2>/dev/null
	keys q
	wait_exit 5
else
	echo "  SKIP: no source with exit records here (dimmed dead rows not checked)"
fi

# --- F2 setup saved to ptoprc: a column added, monochrome chosen --------------
mkdir -p "$T_TMP/setupcfg"
XDG_CONFIG_HOME=$T_TMP/setupcfg start setup 100 30 --source=procfs -d 0.5
expect 'accounted' "setup run: starts"
pane -e | grep -qE $'\e\\[(3[0-7]|4[0-7])m' && ok "colours by default" ||
	bad "no colours by default"
keys F2 End Space
expect '\[x\] COMMAND|\[x\] [A-Za-z]+ .*' "setup: End, Space shows the last column"
keys Tab Tab
expect '^Setup: .*\[Colours\]' "setup: the colours section"
keys Down Space s
expect 'saved .*setupcfg/ptop/ptoprc' "setup s: saved"
rc=$T_TMP/setupcfg/ptop/ptoprc
grep -q '^colors=mono$' "$rc" && ok "ptoprc: colors=mono" || bad "ptoprc: $(grep colors "$rc")"
grep -q '^columns=.*,COMMAND,' "$rc" && ok "ptoprc: the added column after COMMAND" ||
	bad "ptoprc columns: $(grep columns "$rc")"
if pane -e | grep -qE $'\e\\[(3[0-7]|4[0-7])m'; then bad "mono: still colours"
else ok "mono: no colours from now on"; fi
keys q
wait_exit 5
XDG_CONFIG_HOME=$T_TMP/setupcfg start setup2 100 30 --source=procfs -d 0.5
expect 'accounted' "the saved setup: starts"
if pane -e | grep -qE $'\e\\[(3[0-7]|4[0-7])m'; then bad "saved mono not used"
else ok "the saved mono is used at the next start"; fi
keys q
wait_exit 5

# --- NO_COLOR: attributes only ----------------------------------------------
NO_COLOR=1 start mono 80 24 env NO_COLOR=1 -- --no-config --source=procfs -d 0.5
expect 'accounted' "NO_COLOR: starts"
if pane -e | grep -qE $'\e\\[(3[0-7]|4[0-7]|38;|48;)'; then
	bad "NO_COLOR: colour escapes on the screen"
else ok "NO_COLOR: no colours"; fi
pane -e | grep -E 'PID' | head -1 | grep -qE $'\e\\[([0-9]+;)*7(;[0-9]+)*m' && ok "NO_COLOR: the header in reverse video" ||
	bad "NO_COLOR: header not reversed"
keys q
wait_exit 5

finish curses_keys
