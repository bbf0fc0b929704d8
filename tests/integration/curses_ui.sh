#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Drive the interactive view inside a detached tmux: headline, header,
# the keys t H > \ h F2 d Z F k s q, tiny terminals, and a clean exit that
# restores the terminal. PTOP_ASAN=1 also builds build/asan/ (with
# -fsanitize=address,undefined) and runs the same script against it.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v tmux >/dev/null; then
	echo "FAIL: tmux is missing (make test-deps installs it)"
	exit 1
fi
[ -x "$PTOP" ] || { echo "FAIL: $PTOP not built"; exit 1; }

# the private tmux server, ok/bad, pane, keys, wait_for, expect
. "$here/../helpers/tmux.sh"
# ptop runs from a script of its own here: it records the terminal modes
# before and after, which tmux.sh's start does not
tmp=$T_TMP
S=ptop		# the tmux session under test

alive() { [ ! -e "$tmp/rc" ]; }

mkdir -p "$tmp/cfg"
cat > "$tmp/run.sh" <<EOS
stty -a > "$tmp/stty.before"
XDG_CONFIG_HOME="$tmp/cfg" ASAN_OPTIONS=detect_leaks=0 \
	bash -c 'echo \$\$ > "$tmp/pid"; exec "$PTOP" --source=procfs -d 0.3' 2> "$tmp/stderr"
echo \$? > "$tmp/rc"
stty -a > "$tmp/stty.after"
exec sleep 600
EOS

tm new-session -d -s ptop -x 120 -y 30 "bash $tmp/run.sh"

expect 'measuring|accounted' "starts"
expect 'accounted [0-9.]+% of [0-9.]+%' "headline says accounted X% of Y%"
if pane | grep -E '^ *PID .*COMMAND' >/dev/null; then ok "column header has PID and COMMAND"
else bad "column header"; pane | sed 's/^/    | /'; fi
expect '^ *sum ' "sum row"

keys t
expect 'processes  tree' "t: tree view"
expect '(├|└)─ [^─]' "t: tree lines"

keys H
expect 'threads' "H: threads"
expect 'threads  tree' "H: threads from the next interval" 3

keys '>'
expect 'sort own' "> sorts by the next column"
keys '<' r
expect 'sort total \(ascending\)' "< and r"

keys '\' p t o p Enter
expect "filter 'ptop'" "\\: filter"
if pane | sed -n '5,$p' | grep -vE '^ *sum ' | grep -E '^ *[0-9]' | grep -vq ptop; then
	bad "filter shows other commands"; pane | sed 's/^/    | /'
else ok "filter shows only matching rows"; fi

keys h
expect 'Keys' "h: help screen"
keys End
expect 'run-queue delay' "help lists the columns"
keys q
expect 'accounted' "any key leaves help"
alive && ok "q in help does not quit" || bad "q in help quit"

keys F2
expect '\[x\] PID' "F2: setup, columns"
keys Down Space Enter
expect 'accounted' "chooser closes"
if pane | grep -E '^ *PID' | grep -q USER; then bad "USER still shown after hiding it"
else ok "chooser hid USER"; fi

# reorder: PID one down, so the header starts with the next column
keys F2 + Enter
if wait_for '^ *S +PID +total' 3; then ok "chooser moved PID"
else bad "chooser reorder"; pane | sed -n 4p | sed 's/^/    | /'; fi
keys F2 Down - Enter
expect '^ *PID +S ' "chooser moved PID back"

# k: kill a victim of our own, then one that is already gone (errno shown)
cp "$(command -v sleep)" "$tmp/ptopvictim"
"$tmp/ptopvictim" 300 &
victim=$!
keys '\' C-u p t o p v i c t i m Enter
expect "(^| )$victim .*ptopvictim" "filter finds the victim"
keys k
expect "Send to $victim \\(ptopvictim\\)" "k: the signal menu names the target"
expect "SIGTERM" "k: SIGTERM first"
keys Enter
expect "sent SIGTERM to $victim" "k y: sent"
wait $victim 2>/dev/null
[ $? = 143 ] && ok "the victim got SIGTERM" || bad "victim not terminated"
"$tmp/ptopvictim" 300 &
victim=$!
expect "(^| )$victim .*ptopvictim" "second victim shown"
keys k
expect "Send to $victim" "k asks again"
kill -KILL $victim; wait $victim 2>/dev/null
keys Enter
expect "kill $victim: No such process" "kill failure shows errno"
keys '\' C-u p t o p Enter
expect "filter 'ptop'" "filter back to ptop"

keys d C-u 0 . 5 Enter
expect 'delay 0.5s' "d: delay"
keys Z
expect 'PAUSED' "Z: pause"
keys Z F
# (the ptop rows are other tests' too: the one followed may exit, and F says so)
expect 'follow [0-9]+|followed pid [0-9]+ is gone' "F: follow"
keys Down Down PageDown End Home Left Right Right
keys k Escape
expect 'not sent' "k then Esc: nothing sent"
keys W
expect 'saved ' "W: saves the config"
if grep -q '^version=1' "$tmp/cfg/ptop/ptoprc" 2>/dev/null &&
   grep -q '^tree=1' "$tmp/cfg/ptop/ptoprc" &&
   grep -q '^delay=0.5' "$tmp/cfg/ptop/ptoprc"; then ok "ptoprc written"
else bad "ptoprc content"; cat "$tmp/cfg/ptop/ptoprc" 2>&1 | sed 's/^/    | /'; fi

for size in "30 8" "20 5" "1 1" "5 2" "120 30"; do
	set -- $size
	tm resize-window -t "$S" -x "$1" -y "$2"
	sleep 0.7
	alive && ok "alive at ${1}x$2" || bad "died at ${1}x$2"
done
keys h
sleep 0.3
tm resize-window -t "$S" -x 20 -y 5
sleep 0.5
keys Escape
tm resize-window -t "$S" -x 120 -y 30
expect 'accounted' "redraws after resizing back"

keys q
for i in $(seq 300); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
sleep 0.3
if [ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ]; then ok "q: exit status 0"
else bad "exit status '$(cat "$tmp/rc" 2>/dev/null)'"; fi
if grep -Eq 'Segmentation|AddressSanitizer|runtime error|LeakSanitizer' "$tmp/stderr"; then
	bad "crash or sanitizer report:"; sed 's/^/    | /' "$tmp/stderr"
else ok "no crash or sanitizer output"; fi
if [ -s "$tmp/stty.after" ] && cmp -s "$tmp/stty.before" "$tmp/stty.after"; then
	ok "terminal modes restored"
else bad "terminal modes differ"; diff "$tmp/stty.before" "$tmp/stty.after"; fi
if pane | grep -qE '^ *sum '; then bad "screen not restored (table still shown)"
else ok "screen restored"; fi

# SIGTERM also restores the terminal and exits 0
rm -f "$tmp/rc" "$tmp/pid" "$tmp/stty.after"
tm new-session -d -s ptop2 -x 80 -y 24 "bash $tmp/run.sh"
tm kill-session -t ptop
S=ptop2
expect 'accounted' "second run starts"
kill -TERM "$(cat "$tmp/pid")"
for i in $(seq 300); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
sleep 0.3
[ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] && ok "SIGTERM: exit status 0" ||
	bad "SIGTERM: exit status '$(cat "$tmp/rc" 2>/dev/null)'"
cmp -s "$tmp/stty.before" "$tmp/stty.after" && ok "SIGTERM: terminal restored" ||
	bad "SIGTERM: terminal modes differ"

# SIGINT (Ctrl-C) too
rm -f "$tmp/rc" "$tmp/pid" "$tmp/stty.after"
tm new-session -d -s ptop3 -x 80 -y 24 "bash $tmp/run.sh"
tm kill-session -t ptop2
S=ptop3
expect 'accounted' "third run starts"
keys C-c
for i in $(seq 300); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
sleep 0.3
[ "$(cat "$tmp/rc" 2>/dev/null)" = 0 ] && ok "Ctrl-C: exit status 0" ||
	bad "Ctrl-C: exit status '$(cat "$tmp/rc" 2>/dev/null)'"
cmp -s "$tmp/stty.before" "$tmp/stty.after" && ok "Ctrl-C: terminal restored" ||
	bad "Ctrl-C: terminal modes differ"
grep -Eq 'Segmentation|AddressSanitizer|runtime error' "$tmp/stderr" &&
	bad "sanitizer output after Ctrl-C"

if [ "${PTOP_ASAN:-0}" = 1 ] && [ -z "${PTOP_ASAN_INNER:-}" ]; then
	echo "  -- again under -fsanitize=address,undefined (build/asan/)"
	top=$(cd "$here/../.." && pwd)
	if make -C "$top" -s B=build/asan \
	    CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" \
	    build/asan/ptop >/dev/null; then
		PTOP_ASAN_INNER=1 PTOP="$top/build/asan/ptop" bash "$0" || fails=$((fails + 1))
	else
		bad "asan build"
	fi
fi

[ $fails = 0 ] && echo "curses_ui: all passed" || echo "curses_ui: $fails failed"
[ $fails = 0 ]
