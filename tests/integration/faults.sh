#!/usr/bin/env bash
# Faults ptop must survive with a clear word and the right exit status:
#  - stdout closed (ptop -b >&-), also with stderr closed: exit 1, one
#    line "writing output: Bad file descriptor", no crash (no signal);
#  - stdout on a full disk (/dev/full): exit 1, "No space left on device";
#  - the reader of a pipe gone (ptop -b | head -n 1): exit 0 at once (an
#    ordinary end of output), not running on;
#  - the disk full while saving the config (as root: a tiny tmpfs under
#    $B): the interactive 'W' says why, the old file stays byte for byte,
#    no temp file is left; with space again the same key saves;
#  - the taskstats exit multicast overflowing (ENOBUFS; as root): ptop is
#    stopped while processes fork and exit until their exit records
#    overflow its socket buffer; the interval that spans it must say
#    "inexact: lost N exits" (or "lost events"), the ones before it not.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
need_bins "$PTOP"
W=$(mktemp -d)
MNT=
cleanup() {
	[ -n "${sl:-}" ] && kill -CONT "$sl" 2>/dev/null
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null && rmdir "$MNT"
	[ -n "${sock:-}" ] && tmux -L "$sock" kill-server 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

# --- output faults -----------------------------------------------------
for fmt in text csv json; do
	"$PTOP" -b -n 2 -d 0.1 --source=procfs --format=$fmt >&- 2>"$W/err"
	rc=$?
	if [ $rc = 1 ] && grep -q '^ptop: writing output: Bad file descriptor$' "$W/err" &&
	   [ "$(wc -l <"$W/err")" = 1 ]; then
		ok "stdout closed, --format=$fmt: exit 1, says so in one line"
	else
		bad "stdout closed, --format=$fmt: exit $rc, stderr: $(head -c 300 "$W/err")"
	fi
done
"$PTOP" -b -n 2 -d 0.1 --source=procfs >&- 2>&-
rc=$?
[ $rc = 1 ] && ok "stdout and stderr closed: exit 1, no crash" ||
	bad "stdout and stderr closed: exit $rc (over 128: killed by a signal)"

"$PTOP" -b -n 2 -d 0.1 --source=procfs >/dev/full 2>"$W/err"
rc=$?
[ $rc = 1 ] && grep -q 'writing output: No space left on device' "$W/err" &&
	ok "stdout on a full disk: exit 1, says so" ||
	bad "stdout on /dev/full: exit $rc, stderr: $(head -c 300 "$W/err")"

# no -n: without EPIPE handling it would run until the timeout
t0=$SECONDS
timeout 60 "$PTOP" -b -d 0.1 --source=procfs 2>"$W/err" | head -n 1 >/dev/null
rc=${PIPESTATUS[0]}
[ $rc = 0 ] && [ ! -s "$W/err" ] &&
	ok "reader of the pipe gone: exit 0 quietly after $((SECONDS - t0)) s" ||
	bad "reader of the pipe gone: exit $rc (124: ran on), stderr: $(head -c 300 "$W/err")"

# --- config save on a full disk ----------------------------------------
config_full_disk() {
	command -v tmux >/dev/null || { bad "tmux missing (DEB_TEST)"; return; }
	MNT=$(mktemp -d "$B/faults_tmpfs.XXXXXX")
	MNT=$(cd "$MNT" && pwd)
	if ! mount -t tmpfs -o size=64k,mode=0755 ptop_faults "$MNT"; then
		rmdir "$MNT"; MNT=
		skip "cannot mount a tmpfs here: config save on a full disk not tried"
		return
	fi
	local cfg=$MNT/ptoprc
	printf 'version=1\nsort=PID\ndelay=3\n' >"$cfg"
	cp "$cfg" "$W/cfg.before"
	# fill it: what is left is too little for a new ptoprc
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
	sock=ptop_faults_$$
	tm() { tmux -L "$sock" -f /dev/null "$@"; }
	pane() { tm capture-pane -p -t f; }
	wait_for() {
		local i
		for ((i = 0; i < 600; i++)); do	# a loaded machine: seconds
			pane | grep -Eq -- "$1" && return 0
			sleep 0.1
		done
		return 1
	}
	tm new-session -d -s f -x 150 -y 30 \
		"$PTOP --source=procfs -d 0.5 -c '$cfg'; sleep 60"
	wait_for 'accounted' || { bad "config save: ptop did not start"; pane; return; }
	tm send-keys -t f W
	if wait_for 'No space left on device'; then
		ok "config save on a full disk: the screen says 'No space left on device'"
	else
		bad "config save on a full disk: no error on the screen"
		pane | sed 's/^/    | /'
	fi
	cmp -s "$cfg" "$W/cfg.before" &&
		ok "config save on a full disk: the old file is intact" ||
		bad "config save on a full disk: the old file changed: $(head -c 200 "$cfg")"
	left=$(ls -A "$MNT" | grep -v '^ptoprc$\|^fill$' | tr '\n' ' ')
	[ -z "$left" ] && ok "config save on a full disk: no temp file left" ||
		bad "config save on a full disk: left behind: $left"
	rm -f "$MNT/fill"
	tm send-keys -t f W
	if wait_for "saved $cfg"; then
		grep -q '^delay=0.5$' "$cfg" &&
			ok "config save with space again: saved (delay=0.5)" ||
			bad "config save with space again: $(cat "$cfg")"
	else
		bad "config save with space again: not saved"; pane | sed 's/^/    | /'
	fi
	tm send-keys -t f q
	tm kill-server 2>/dev/null
	sock=
	umount "$MNT" && rmdir "$MNT"
	MNT=
}

# --- exit multicast overflow (ENOBUFS) ---------------------------------
enobufs() {
	local tsload=$B/tests/helpers/tsload forks=0 n t0
	[ -x "$tsload" ] || { bad "$tsload missing"; return; }
	"$PTOP" -b -d 1 -n 4 --source=taskstats -o PID,COMMAND >"$W/lost.out" \
		2>"$W/lost.err" &
	sl=$!
	for ((n = 0; n < 100; n++)); do
		[ "$(grep -c '^ptop ' "$W/lost.out")" -ge 1 ] && break
		sleep 0.1
	done
	kill -STOP $sl
	# each fork brings a thread: two exit records; 12000 forks is several
	# times what an 8 MB socket buffer holds
	t0=$SECONDS
	while [ $forks -lt 12000 ] && [ $((SECONDS - t0)) -lt 40 ]; do
		n=$("$tsload" forkstorm 1 | sed -n 's/^forks //p')
		forks=$((forks + ${n:-0}))
	done
	kill -CONT $sl
	wait $sl
	rc=$?
	sl=
	[ $rc = 0 ] || { bad "ENOBUFS: ptop exited $rc: $(head -c 300 "$W/lost.err")"; return; }
	grep '^ptop ' "$W/lost.out" | sed 's/^/    | /'
	first=$(grep '^ptop ' "$W/lost.out" | head -n 1)
	storm=$(grep '^ptop ' "$W/lost.out" | sed -n 2p)
	if grep -Eq 'inexact: (.*, )?lost ([0-9]+ exits?|events)' <<<"$storm"; then
		ok "ENOBUFS: $forks forks while ptop was stopped: that interval says $(grep -Eo 'lost [0-9a-z ]+' <<<"$storm" | head -n1)"
	else
		bad "ENOBUFS: after $forks forks the interval does not say lost: $storm"
	fi
	grep -q 'lost' <<<"$first" &&
		bad "ENOBUFS: the interval before the storm says lost too: $first" ||
		ok "ENOBUFS: the interval before the storm says nothing lost"
}

if [ "$(id -u)" = 0 ]; then
	config_full_disk
	enobufs
else
	skip "config save on a full disk and ENOBUFS need root (tmpfs, CAP_NET_ADMIN)"
fi
[ $fail = 0 ] && [ $skipped = 1 ] && exit 77
exit $fail
