#!/bin/bash
# The interactive view's event panel (E) with the module loaded, in tmux
# inside the guest: E listens (the module counts one event listener) and
# shows the fork, exec and exit of a marked process as they happen, with
# ptop's default --drop-capabilities=strict (the view keeps CAP_NET_ADMIN
# for the panel while the module is loaded); E again stops listening
# (0 listeners). As an unprivileged user the panel says CAP_NET_ADMIN is
# needed.
. "$(dirname "$0")/kmod_common.sh"
require_module
PTOP=$PTOP_REPO/build/ptop
[ -x "$PTOP" ] || { echo "FAIL - build/ptop missing"; exit 1; }
command -v tmux >/dev/null || { echo "FAIL - tmux missing"; exit 1; }
# ok/bad/finish from here on are the tmux helper's (check uses them)
. "$PTOP_REPO/tests/helpers/tmux.sh"
# under emulation one capture of the screen can take a second: wait by
# the clock, not by a count of tries, and poll less often
wait_for() {
	local end=$((SECONDS + ${2:-5}))
	while [ $SECONDS -lt $end ]; do
		pane | grep -Eq -- "$1" && return 0
		sleep 0.5
	done
	return 1
}
wait_gone() {
	local end=$((SECONDS + ${2:-5}))
	while [ $SECONDS -lt $end ]; do
		pane | grep -Eq -- "$1" || return 0
		sleep 0.5
	done
	return 1
}
W=$(mktemp -d)
chmod 755 "$W" "$T_TMP"
cp /bin/sleep "$W/panelmark"
cp /bin/bash "$W/panelmarksh"

start ev 120 36 --no-config -d 1
expect 'accounted [0-9.]+% of' "the view starts (source $("$PTOP" --list-sources | awk '$2 == "ok" {print $1; exit}'))" 20
check "no event listener before E" wait_state event_listeners 0
keys E
expect '^Events from ptop_taskstats: [0-9]+ seen' "E: the panel listens" 10
check "E: the module has one event listener" wait_state event_listeners 1
# this test's own captures make events too: the live filter keeps the
# marked ones (the fork's comm is the parent's, panelmarksh)
keys F4 p a n e l m a r k Enter
expect "filter 'panelmark'" "F4: the filter, for the panel too" 10
"$W/panelmarksh" -c "\"$W/panelmark\" 0.1; true" &
sh=$!
wait $sh
expect "fork +pid=[0-9]+ tgid=[0-9]+ parent=$sh comm=panelmarksh" "the panel shows the fork by pid $sh" 20
m=$(pane | sed -n "s/.*fork \+pid=\([0-9]*\) tgid=[0-9]* parent=$sh comm=.*/\1/p" | tail -1)
expect "exec +pid=$m tgid=$m old=$m comm=panelmark\$" "the panel shows its exec (pid $m), comm=panelmark" 20
expect "exit +pid=$m tgid=$m code=0 comm=panelmark\$" "the panel shows its exit, code=0" 20
expect "exit +pid=$sh tgid=$sh code=0 comm=panelmarksh" "and the exit of the shell (pid $sh)" 20
pane | grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} (fork|exec|exit)' | tail -3
# the newest event at the bottom: the exit after the exec
ex=$(pane | grep -nE "exec +pid=$m " | tail -1 | cut -d: -f1)
xt=$(pane | grep -nE "exit +pid=$m " | tail -1 | cut -d: -f1)
[ -n "$ex" ] && [ -n "$xt" ] && [ "$ex" -lt "$xt" ] && ok "newest at the bottom (exec line $ex, exit line $xt)" ||
	bad "order: exec line '$ex', exit line '$xt'"
pane | grep -qE '^ *sum ' && ok "the table's sum row stays above the panel" || bad "no sum row with the panel"
keys E
wait_gone '^Events ' 10 && ok "E again: the panel closes" || bad "E again: the panel stays"
check "E again: no event listener (the module stops producing)" wait_state event_listeners 0
keys q
wait_exit 10 && [ "$rc_of" = 0 ] && ok "q: status 0" || bad "q: status '$rc_of'"

# an unprivileged user: the panel says what is missing
start nobody 120 36 setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
	--no-config --source=procfs -d 1
expect 'accounted [0-9.]+% of' "as nobody: the view starts" 20
keys E
expect 'No events: not allowed.*CAP_NET_ADMIN' "as nobody: E says CAP_NET_ADMIN is needed" 10
check "as nobody: no event listener" wait_state event_listeners 0
keys q
wait_exit 10
check_dmesg "events_panel"
rm -rf "$W"
finish test_events_panel
