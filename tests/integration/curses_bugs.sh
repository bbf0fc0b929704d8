#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regression tests of the interactive view's bugs found in review,
# each against the real binary in tmux: stdin at its end costs no CPU,
# the delay prompt starts empty, Right scrolls only as far as there is
# something to show, follow stops when its pid is gone, a long delay
# still shows rows at once, the headline clock is the snapshot's (frozen
# while paused), and what batch mode prints on stderr (the source's note,
# a config warning) shows in the view.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

# --- stdin at EOF: keys from /dev/tty, and no busy loop ------------------
# share of one CPU, in %, that pid used over about 3 s of wall time
cpu_share() {
	local pid=$1 t0 t1 c0 c1
	t0=$(date +%s%N); c0=$(cpu_ticks "$pid")
	sleep 3
	t1=$(date +%s%N); c1=$(cpu_ticks "$pid")
	echo $(( (c1 - c0) * 1000000000 / $(getconf CLK_TCK) * 100 / (t1 - t0) ))
}
# the claim is < 1%; the bound is generous (a spinning loop costs ~100%)
BOUND=3

T_STDIN='< /dev/null' start eof 100 30 --no-config --source=procfs -d 30
expect 'accounted' "ptop < /dev/null: rows shown" 6
share=$(cpu_share "$(ptop_pid)")
[ "$share" -lt $BOUND ] && ok "ptop < /dev/null uses ${share}% CPU (< $BOUND%)" ||
	bad "ptop < /dev/null uses ${share}% CPU"
keys t
expect 'tree' "ptop < /dev/null: keys come from the terminal"
keys q
wait_exit 5 && [ "$rc_of" = 0 ] && ok "ptop < /dev/null: q quits, status 0" ||
	bad "ptop < /dev/null: q gave status '$rc_of'"

# no controlling terminal at all (setsid): input is dead, still no spin
T_STDIN='< /dev/null' start nctty 100 30 setsid -- --no-config --source=procfs -d 30
expect 'accounted' "no terminal to read keys from: rows shown" 6
share=$(cpu_share "$(ptop_pid)")
[ "$share" -lt $BOUND ] && ok "without a terminal for keys: ${share}% CPU (< $BOUND%)" ||
	bad "without a terminal for keys: ${share}% CPU"
kill -TERM "$(ptop_pid)"
wait_exit 5 && [ "$rc_of" = 0 ] && ok "SIGTERM ends it, status 0" ||
	bad "SIGTERM: status '$rc_of'"

# --- a long delay shows rows at once; the delay prompt is empty ----------
# (rows long before the delay: the first interval is a short one; a
# loaded machine may take seconds for the first walk, so -d 300)
start delay 100 30 --no-config --source=procfs -d 300
t0=$SECONDS
if wait_for 'accounted [0-9.]+%' 20 && pane | grep -Eq '^ *[0-9]+ +[a-z]'; then
	ok "-d 300: rows after $((SECONDS - t0)) s (a quick first interval)"
else bad "-d 300: no rows after $((SECONDS - t0)) s"; pane | sed 's/^/    | /'; fi
keys d
expect 'delay in seconds \(now 300\): *$' "d: the prompt shows the delay and starts empty"
keys 1 Enter
expect 'delay 1s' "d 1 Enter: delay 1s (not 3001s)"
pane | grep -q 'delay 3001s' && bad "delay prompt kept the old value"

# --- the headline clock is the snapshot's: frozen while paused -----------
keys Z
expect 'PAUSED' "Z: paused"
h1=$(pane | sed -n 1p)
sleep 2.2
keys Down	# a redraw: the clock must still be the snapshot's
sleep 0.5
h2=$(pane | sed -n 1p)
[ -n "$h1" ] && [ "$h1" = "$h2" ] && ok "paused: the headline's clock stays ($h1)" ||
	bad "paused headline moved: '$h1' -> '$h2'"
keys Z
tm kill-session -t delay

# --- Right stops at the end; Left comes all the way back ------------------
wide=PID,TGID,PPID,USER,STATE,THREADS,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,total,TIME,COMMAND
start scroll 80 24 --no-config --source=procfs -d 0.5 -o $wide
expect 'accounted' "wide columns: started"
expect '>$' "header marks more to the right"
for i in $(seq 60); do keys Right; done
if wait_for '^<.*COMMAND' 3; then ok "Right x60: stops with COMMAND on screen, '<' marks more left"
else bad "Right x60: COMMAND not on screen"; pane | sed -n 4p | sed 's/^/    | /'; fi
pane | sed -n 4p | grep -Eq '^< *$' && bad "scrolled into a blank header"
n=$(pane | sed -n 4p | grep -o COMMAND | wc -l)
for i in $(seq 40); do keys Left; done
expect '^ *PID +TGID' "Left comes back to the first column"

# --- follow: a pid that exits ends follow, with a message -----------------
cp "$(command -v sleep)" "$T_TMP/ptopfollowme"
"$T_TMP/ptopfollowme" 300 &
victim=$!
keys '\' p t o p f o l l o w m e Enter
expect "^ *$victim " "filter finds the victim"
keys F
expect "follow $victim" "F: follows the victim"
kill -KILL $victim; wait $victim 2>/dev/null
expect "followed pid $victim is gone" "follow ends when the pid exits" 6
pane | grep -q "follow $victim  " && bad "status still says follow $victim"
keys k
expect 'no task selected' "k after the followed pid is gone: no stale target"
tm kill-session -t scroll

# --- what batch prints on stderr shows in the view (as a user) ------------
cfgdir=$T_TMP/unreadable
mkdir -p "$cfgdir/ptop"
echo 'version=1' > "$cfgdir/ptop/ptoprc"
chmod 000 "$cfgdir/ptop/ptoprc"
XDG_CONFIG_HOME=$cfgdir start user 240 30 setpriv --reuid 65534 --regid 65534 --clear-groups -- -d 0.5
expect 'ptoprc: Permission denied' "a config warning shows in the view"
expect 'source procfs: clock-tick' "the source's note shows in the view"
keys q
wait_exit 5

finish curses_bugs
