#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The view ends when its terminal goes away: ptop started in a tmux
# session, the session killed (tmux closes the pty), and the ptop process
# must be gone within seconds. Cases: a plain start (the hangup signal
# reaches it), started in a session of its own (setsid: no signal, only
# the lost terminal says so), the same with stdin from /dev/null (only
# the output can tell), and under `su nobody` (su starts a new session,
# as a user switching to nobody would).
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"

# ptop's pid: the one start() recorded, or the descendant of it that
# runs $PTOP (su forks)
ptop_proc() {
	local todo=("$(ptop_pid)") p kids
	while [ ${#todo[@]} -gt 0 ]; do
		p=${todo[0]}; todo=("${todo[@]:1}")
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$PTOP" ] &&
			{ echo "$p"; return; }
		kids=$(cat /proc/"$p"/task/*/children 2>/dev/null)
		todo+=($kids)
	done
}
# gone_within PID SECONDS: the process has ended (or is a zombie)
gone_within() {
	local i st
	for ((i = 0; i < $2 * 10; i++)); do
		st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)
		[ -z "$st" ] || [ "$st" = Z ] && return 0
		sleep 0.1
	done
	return 1
}

# case NAME [prefix.. --]: start, kill the session, ptop must end
case_gone() {
	local name=$1 pid i
	shift
	# -d 300: after the first short interval nothing wakes the loop but
	# the terminal's end
	start "$name" 80 24 "$@" --no-config --source=procfs -d 300
	if ! wait_for 'accounted [0-9.]+%' 10; then
		bad "$name: ptop did not start"; pane | sed 's/^/    | /'
		cat "$T_TMP/$name/stderr" | sed 's/^/    ! /'
		return
	fi
	for i in $(seq 20); do pid=$(ptop_proc); [ -n "$pid" ] && break; sleep 0.1; done
	[ -n "$pid" ] || { bad "$name: no ptop process found"; return; }
	tm kill-session -t "$name"
	# seconds, not the 2 s interval: the loop sees the hangup at once
	if gone_within "$pid" 5; then ok "$name: ptop ($pid) ended with its terminal"
	else
		bad "$name: ptop ($pid) still runs 5 s after its terminal went away"
		kill -KILL "$pid" 2>/dev/null
	fi
}

case_gone plain
case_gone setsid setsid --
T_STDIN='< /dev/null' case_gone nullin setsid --
# POSIXLY_CORRECT: su takes what follows the user as the shell's
# arguments, not as options of its own. nobody runs a copy of ptop that
# it can reach (the tree may be under a private home such as /root)
mkdir -p "$T_TMP/nobody" && chmod 755 "$T_TMP" "$T_TMP/nobody" &&
	cp "$PTOP" "$T_TMP/nobody/ptop" || bad "a copy of ptop for nobody"
root_ptop=$PTOP
PTOP=$T_TMP/nobody/ptop
case_gone su env POSIXLY_CORRECT=1 su -s /bin/sh -c 'exec "$0" "$@"' nobody --
PTOP=$root_ptop

# a hangup signal with the terminal still there: ends, and restores it
start hup 80 24 --no-config --source=procfs -d 1
expect 'accounted [0-9.]+%' "hup: started" 10
kill -HUP "$(ptop_pid)"
wait_exit 5 && [ "$rc_of" = 0 ] && ok "SIGHUP: status 0" ||
	bad "SIGHUP: status '$rc_of'"
pane | grep -q 'accounted' && bad "SIGHUP: the screen was not restored" ||
	ok "SIGHUP: the screen restored"

finish curses_hangup
