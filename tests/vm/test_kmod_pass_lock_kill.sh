#!/bin/bash
# vm-timeout: 900
# A killable wait: a query waiting for the pass lock behind another
# reader's pass was not killable (mutex_lock(): a query waited 988 ms when
# this was found, SIGKILL or not). Three thread queries are started together
# over $N threads (a pass of a second or more); the first seen waiting
# for the lock (asleep in it: its wchan is the module's lock function or
# ptop_ts_snap_take, which tail-calls it; the mutex's own functions are
# scheduler functions that wchan skips) gets SIGKILL and must be gone
# (a zombie) before the holder's pass ends (the module's answer count
# unchanged). Nothing here is timed: the waiter either leaves at once or
# only after the holder's pass. The polling loop uses shell builtins only
# (no fork between the kill and the check).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
N=${NT:-20000}
ATTEMPTS=12

start_threads "$N" "$W/th"
tsquery -t >/dev/null
echo "one thread pass over $N threads: $(($(state walk_last_ns) / 1000000)) ms"

# ANS: the module's count of answers made (no fork)
get_answers() {
	local k v
	while read -r k v; do
		[ "$k" = answers ] && { ANS=$v; return; }
	done <"$STATE"
}
# WCHAN of pid $1, STAT its state letter (no fork)
get_wchan() { WCHAN=; read -r WCHAN 2>/dev/null <"/proc/$1/wchan"; }
get_stat() {
	local l
	STAT=X
	read -r l 2>/dev/null <"/proc/$1/stat" || return
	l=${l##*) }
	STAT=${l%% *}
}

caught=0 left=0
mkfifo "$W/gate"
in_lock() { [[ $WCHAN == *pass_lock* || $WCHAN == ptop_ts_snap_take ]]; }
for a in $(seq $ATTEMPTS); do
	[ $caught -ge 4 ] && break
	get_answers; a0=$ANS
	qs=
	# started together: each waits 2 s (read -t on a FIFO, no fork) and
	# then execs the query, so all are running before the first pass ends
	for q in 1 2 3; do
		(read -r -t 2 <>"$W/gate"; exec tsquery -t >/dev/null) &
		qs+=" $!"
	done
	waiter= seen=
	# until one of them sleeps in the lock while no pass has ended
	for i in $(seq 20000); do
		get_answers
		[ "$ANS" = "$a0" ] || break
		for q in $qs; do
			get_wchan $q
			seen+=" $WCHAN"
			in_lock && { waiter=$q; break 2; }
		done
	done
	if [ -z "$waiter" ]; then
		echo "attempt $a: no waiter seen in the lock before a pass ended (wchans seen:$(tr ' ' '\n' <<<"$seen" | sort -u | tr '\n' ' '))"
		wait $qs
		continue
	fi
	caught=$((caught + 1))
	kill -KILL $waiter
	gone=0
	while :; do
		get_stat $waiter
		[ "$STAT" = Z ] || [ "$STAT" = X ] && { gone=1; break; }
		get_answers
		[ "$ANS" = "$a0" ] || break
	done
	if [ $gone = 1 ]; then
		left=$((left + 1))
		echo "attempt $a: the waiter ($waiter, in $WCHAN) gone at SIGKILL, before the holder's pass ended"
	else
		echo "attempt $a: the waiter ($waiter, in $WCHAN) still there (state $STAT) when the holder's pass ended"
	fi
	wait $qs 2>/dev/null
done
check "a waiter for the pass lock caught in $caught of $ATTEMPTS attempts (3 or more)" [ $caught -ge 3 ]
check "SIGKILL ended each waiter before the holder's pass did ($left of $caught)" \
	[ $left = $caught ]
kill $th
wait $th 2>/dev/null
sleep 1
tsquery -t >/dev/null || bad "a query after the test"
check_idle_state "pass_lock_kill"
check_dmesg "pass_lock_kill"
rm -rf "$W"
finish test_kmod_pass_lock_kill
