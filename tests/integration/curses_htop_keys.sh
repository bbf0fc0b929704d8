#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# htop's per-task keys on a process of the test's own, from captured
# screens and the kernel's own view of the process: e its environment
# and w its command line (at 80x24, 100x30 and 200x50), s strace -p and l
# lsof -p as htop runs them (and a clear message when they are not
# installed), a its CPU affinity (/proc/PID/status says what the kernel
# set), i its I/O priority (ionice -p says), the signal menu with every
# signal and its number (a number typed picks it; the process dies of
# it); ptop's own toggles on their new keys (D dead rows, W save). As
# root, with --drop-capabilities=off: the default drops CAP_SYS_PTRACE,
# and e then says so.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

# the victim: a shell of its own name, waiting on a sleep, with a known
# environment variable and a long command line ending in a marker
cp "$(command -v bash)" "$T_TMP/ptopvictim"
long=$(printf 'word%02d ' $(seq 40))
PTOP_HTOP_ENV=hello-env "$T_TMP/ptopvictim" -c "sleep 600; : $long END-MARK" &
victim=$!
sleeper=
trap 'kill $victim $sleeper 2>/dev/null; t_cleanup' EXIT
for i in $(seq 100); do
	sleeper=$(pgrep -P $victim sleep)
	[ -n "$sleeper" ] && break
	sleep 0.1
done

# select the victim: the filter leaves its row alone, selected
pick_victim() {
	keys F4 p t o p v i c t i m Enter
	expect "^ *$victim " "$1: the victim's row"
}

for size in 80x24 100x30 200x50; do
	w=${size%x*} h=${size#*x}
	start "e$w" "$w" "$h" --no-config --source=procfs -d 300 --drop-capabilities=off
	expect 'accounted [0-9.]+%' "$size: started" 10
	pick_victim "$size"
	keys e
	expect "^Environment of $victim \\(ptopvictim\\)" "$size: e: the environment screen"
	expect '^PTOP_HTOP_ENV=hello-env' "$size: e: the victim's variable"
	keys Escape
	expect "^ *$victim " "$size: Esc: back to the table"
	keys w
	expect "^Command line of $victim" "$size: w: the command line screen"
	if wait_for 'END-MARK' 3 && pane | tr -s ' \n' '  ' | grep -qF "$long"; then
		ok "$size: w: the whole command line, wrapped"
	else bad "$size: w: the command line is cut"; pane | sed 's/^/    | /'; fi
	keys q
	keys q
	wait_exit 5
done

# ptop drops CAP_SYS_PTRACE by default: root's e on root's task says why
start strict 100 30 --no-config --source=procfs -d 300
expect 'accounted [0-9.]+%' "strict: started" 10
pick_victim strict
keys e
wait_for 'Permission denied' 3
pane | tr -s ' \n' '  ' |
	grep -qF 'Permission denied (only its owner may read it, or root with CAP_SYS_PTRACE, which ptop drops unless --drop-capabilities=off)' &&
	ok "strict: e says why it cannot read the environment" ||
	{ bad "strict: e: no reason given"; pane | sed 's/^/    | /'; }
keys q
wait_exit 5

start keys 100 30 --no-config --source=procfs -d 300 --drop-capabilities=off
expect 'accounted [0-9.]+%' "100x30: started" 10
pick_victim 100x30
# s: strace -p, its output as it comes; Esc ends it
keys s
expect "^strace -T -tt -s 512 -p $victim" "s: the strace screen"
expect 'wait4|waitid|restart_syscall|attached' "s: strace's output shows" 10
tracer=$(pgrep -f "strace -T -tt -s 512 -p $victim")
[ -n "$tracer" ] && ok "s: strace runs ($tracer)" || bad "s: no strace process"
keys Escape
for i in $(seq 50); do pgrep -f "strace -T -tt -s 512 -p $victim" >/dev/null || break; sleep 0.1; done
pgrep -f "strace -T -tt -s 512 -p $victim" >/dev/null && bad "Esc: strace still runs" ||
	ok "Esc: strace ended with its screen"
# l: lsof -p
keys l
expect "^lsof -P -o -p $victim" "l: the lsof screen"
expect 'ptopvict.* cwd ' "l: lsof lists the victim's cwd" 20
keys Escape
# a: the CPUs; Space unchecks CPU 0, Enter sets
if [ "$(nproc)" -ge 2 ]; then
	keys a
	expect "CPU affinity of $victim" "a: the affinity menu"
	expect '\[x\] CPU 1' "a: CPU 1 checked"
	keys Space Enter
	expect "affinity of $victim: $(($(nproc) - 1)) of $(nproc) CPUs" "a: Enter sets it"
	want=$(seq -s, 1 $(($(nproc) - 1)))
	[ "$(nproc)" = 2 ] && want=1
	got=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/$victim/status)
	[ "$got" = "$want" ] || [ "$got" = "1-$(($(nproc) - 1))" ] &&
		ok "a: the kernel has it: Cpus_allowed_list $got" ||
		bad "a: Cpus_allowed_list '$got', want CPUs 1..$(($(nproc) - 1))"
else ok "a: one CPU, nothing to choose (skipped)"; fi
# i: I/O priority; End is idle
keys i
expect "I/O priority of $victim" "i: the I/O priority menu"
keys End Enter
expect "I/O priority of $victim: idle" "i: Enter sets it"
ionice -p $victim | grep -q '^idle' && ok "i: ionice -p says idle" ||
	bad "i: ionice -p says '$(ionice -p $victim)'"
# D and W: ptop's own toggles, moved
keys D
expect 'tasks that died in the interval shown' "D: dead rows on"
keys W
expect 'no config file to save to' "W: save (here: --no-config says so)"
# F9: every signal with its number; typing 10 picks SIGUSR1
keys F9
expect "Send to $victim \\(ptopvictim\\)" "F9: the signal menu for the victim"
expect '^ *15 SIGTERM' "F9: SIGTERM with its number"
if sel_rows | grep -q '15 SIGTERM'; then ok "F9: SIGTERM selected first"
else bad "F9: selected '$(sel_rows)'"; fi
pane | grep -qE '^ *9 SIGKILL' && pane | grep -qE '^ *1 SIGHUP' &&
	ok "F9: SIGHUP 1 .. SIGKILL 9 listed" || bad "F9: the list lacks numbers"
keys End
expect '^ *31 SIGSYS' "F9: the list goes on to 31 SIGSYS"
keys 1 0
sleep 0.3
sel_rows | grep -q '10 SIGUSR1' && ok "F9: 1 0 picks SIGUSR1" ||
	bad "F9: after 1 0 selected '$(sel_rows)'"
keys Enter
expect "sent SIGUSR1 to $victim" "F9: sent"
wait $victim 2>/dev/null
st=$?
[ $st = $((128 + 10)) ] && ok "the victim died of SIGUSR1 (status $st)" ||
	bad "the victim's status $st, want 138"
keys q
wait_exit 5

# not installed: s and l say so and change nothing
start nopath 80 24 env PATH=/nonexistent -- --no-config --source=procfs -d 300
expect 'accounted [0-9.]+%' "PATH without strace: started" 10
keys s
expect 'strace is not installed' "s: strace not installed, said"
keys l
expect 'lsof is not installed' "l: lsof not installed, said"
pane | grep -qE '^ *PID ' && ok "the table stays" || bad "the table is gone"
keys q
wait_exit 5

finish curses_htop_keys
