#!/bin/bash
# Process events are for privileged listeners only, in their own pid
# namespace: an unprivileged user can neither join the "events" group
# (EPERM) nor LISTEN (EPERM) nor receive anything while root listens; root
# still gets the events; a listener in a child pid namespace gets the
# events of its own namespace's tasks, with that namespace's pids, and
# none of the host's.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
chmod 755 "$W"
PY=/usr/bin/python3
H=$W/nl_events.py
cp "$PTOP_REPO/tests/vm/nl_events.py" "$H"
chmod 755 "$H"
# distinct comms: the processes whose events are looked for
cp /bin/sleep "$W/secmarkhost"
cp /bin/sleep "$W/secmarkns"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# listeners_ready FILE...: each listener printed "ready" on stderr
listeners_ready() {
	local f i
	for f in "$@"; do
		for i in $(seq $((100 * PATIENCE))); do
			grep -q ready "$f" 2>/dev/null && break
			sleep 0.1
		done
		grep -q ready "$f" || { bad "$f: listener not ready: $(cat "$f")"; return 1; }
	done
}

# listeners run for 120 s (times PATIENCE) and are killed once what the
# test looks for is there (wait_line: a fixed listening time is too short
# on a loaded host)
LISTEN_S=$((120 * PATIENCE))
# stop PID...: end listeners (each line is flushed: nothing is lost)
stop() { kill -TERM "$@" 2>/dev/null; wait "$@" 2>/dev/null; }

# --- 1: unprivileged join and listen, with a root listener ---------------
$PY "$H" listen $LISTEN_S >"$W/root" 2>"$W/root.err" &
r=$!
as_nobody $PY "$H" join $LISTEN_S >"$W/nobody" 2>"$W/nobody.err" &
n1=$!
as_nobody $PY "$H" listen $LISTEN_S >"$W/nobody_l" 2>"$W/nobody_l.err" &
n2=$!
listeners_ready "$W/root.err" "$W/nobody.err" "$W/nobody_l.err"
check "root listener: 1 event listener" wait_state event_listeners 1 30
for i in 1 2 3; do "$W/secmarkhost" 0.05; done
wait_line "$W/root" '^event exit .*comm=secmarkhost'
sleep 0.5	# what nobody might wrongly get is sent by then too
stop $r $n1 $n2
echo "root: $(head -2 "$W/root" | tr '\n' ' ') $(grep -c '^event' "$W/root") events"
echo "nobody join: $(head -1 "$W/nobody") $(grep -c '^event' "$W/nobody") events"
echo "nobody listen: $(head -2 "$W/nobody_l" | tr '\n' ' ') $(grep -c '^event' "$W/nobody_l") events"
check "root joins the group" grep -qx 'join ok' "$W/root"
check "root may listen" grep -qx 'listen ok' "$W/root"
check "root receives the exec of secmarkhost" \
	grep -q '^event exec .*comm=secmarkhost' "$W/root"
check "nobody joining the group gets EPERM" grep -qx 'join EPERM' "$W/nobody"
check "nobody receives no event (group only)" \
	[ "$(grep -c '^event' "$W/nobody")" = 0 ]
check "nobody listening gets EPERM" grep -qx 'listen EPERM' "$W/nobody_l"
check "nobody receives no event (listen)" \
	[ "$(grep -c '^event' "$W/nobody_l")" = 0 ]
check "listeners gone: 0 event listeners" wait_state event_listeners 0

# --- 2: a listener in a child pid namespace -------------------------------
# the ns listener stops once it has its own secmarkns and the host has run
# secmarkhost (host.done): it had the chance to (wrongly) see that one
$PY "$H" listen $LISTEN_S >"$W/host" 2>"$W/host.err" &
h=$!
unshare -pf --mount-proc bash -c "
	$PY '$H' listen $LISTEN_S >'$W/ns' 2>'$W/ns.err' &
	l=\$!
	for i in \$(seq $((300 * PATIENCE))); do grep -q ready '$W/ns.err' && break; sleep 0.1; done
	for i in 1 2 3; do '$W/secmarkns' 0.05; done
	for i in \$(seq $((600 * PATIENCE))); do
		grep -q '^event exit .*comm=secmarkns' '$W/ns' && [ -e '$W/host.done' ] && break
		sleep 0.1
	done
	sleep 0.5
	kill -TERM \$l
	echo \$\$ >'$W/ns.bash'
	wait" &
u=$!
listeners_ready "$W/host.err" "$W/ns.err"
for i in 1 2 3; do "$W/secmarkhost" 0.05; done
wait_line "$W/host" '^event exit .*comm=secmarkhost'
touch "$W/host.done"
wait $u
wait_line "$W/host" '^event exit .*comm=secmarkns'
stop $h
echo "ns listener: $(head -2 "$W/ns" | tr '\n' ' ') $(grep -c '^event' "$W/ns") events"
grep '^event' "$W/ns" | head -8
check "ns listener may listen (root)" grep -qx 'listen ok' "$W/ns"
check "ns listener gets its namespace's exec of secmarkns" \
	grep -q '^event exec .*comm=secmarkns' "$W/ns"
check "ns listener gets no event of the host's secmarkhost" \
	[ "$(grep -c 'comm=secmarkhost' "$W/ns")" = 0 ]
maxpid=$(sed -n 's/^event [a-z]* pid=\([0-9]*\).*/\1/p' "$W/ns" | sort -n | tail -1)
check "ns listener sees namespace pids only (largest: ${maxpid:-none})" \
	[ "${maxpid:-999}" -lt 50 ]
nspid=$(sed -n 's/^event exec pid=\([0-9]*\).*comm=secmarkns.*/\1/p' "$W/ns" | head -1)
hostpid=$(sed -n 's/^event exec pid=\([0-9]*\).*comm=secmarkns.*/\1/p' "$W/host" | head -1)
check "host listener sees secmarkns with its host pid (${hostpid:-none}, in the ns ${nspid:-none})" \
	[ -n "$hostpid" -a -n "$nspid" -a "$hostpid" != "$nspid" ]
check "ns listener's socket released: 0 event listeners" wait_state event_listeners 0
check_dmesg "events_priv"
rm -rf "$W"
finish test_kmod_events_priv
