#!/bin/bash
# vm-tcg: single
# (it reloads the module under a fork storm: insmod patches the
# tracepoint sites the storm runs, which under multi-threaded TCG
# soft-locked the guest once in 5 runs of test_kmod_load, both vCPUs
# looping on text_poke_bp()'s int3; docs/reliability.md, "Text patching")
# The attacks on the module (docs/reliability.md), all at once, for PTOP_ATTACK_SECS seconds
# (default 600). Not a test_*.sh (too long for `make vm-check`):
# `make vm-attack` runs it (VM_KERNEL=debug for the debug kernel).
# Running together for the whole time:
#   - a fork storm (tsload forkstorm) and a tree of short multi-threaded
#     processes (ptop_churn);
#   - validating readers (tsquery -V: every answer checked, none may be
#     lost): /proc and netlink, threads and groups, in the host and in two
#     child pid namespaces, and one unprivileged reader of reader_gid
#     (back-to-back writes of a member: rate-limited, pass_interval_us);
#   - unprivileged outsiders: reads (EACCES/EPERM), multicast joins and
#     LISTEN (EPERM), every second;
#   - malformed writes (tsquery -b: garbage from 8 threads, short, bad
#     command, bad flags, faulting buffers);
#   - module reloads under all of it (every RELOAD_SECS, default
#     PTOP_ATTACK_SECS/10 but at least 30);
#   - CPU hotplug (cpu1 off and on again, every 2 s);
#   - zombies (1000 at a time, held 3 s);
#   - an unprivileged user's subreapers adopting orphans under a chain of
#     300 (tssubreaper), and its orphan loop (tsload orphans);
#   - netlink dumpers killed mid-dump (SIGKILL/SIGTERM, or a socket closed
#     after a few messages);
#   - steal readers and event listeners coming and going.
# Reloads and the rest: the validating /proc readers keep going while the
# module is being reloaded (races with the unload are the point; netlink
# readers step aside, their dump would hold a module reference); the
# reloader counts a generation in PTOP_RELOAD_GEN_FILE (odd while
# reloading) and a reader's failure then is excused (its answers must
# still be well formed). The fork storm, the churn, the zombies and the
# hotplug go on through reloads too: what they are judged on does not
# need the module. The attacks whose verdict is the module's answer
# (refusals, malformed writes, clients, dumpers) run their rounds only
# while it is loaded: a reload waits for the rounds in flight and holds
# off new ones (a shared/exclusive flock), so that every round is judged;
# a round that cannot be is counted and fails the run, with the reason.
# Every reload is judged too (its rmmod and insmod worked), and their
# number is what the kernel's speed allowed (one every RELOAD_SECS after
# the last), not a fixed count: on the debug kernel an rmmod under this
# load takes 30-60 s where 6.1 takes seconds.
# Checks at the end: every reader's answers well formed and none lost,
# every refusal and every malformed write refused as it should be, every
# other client served, every round of every attack judged and at least
# one of each, every reload done, the module's counters back to 0,
# task_struct objects and unreclaimable slab back to their baseline,
# dmesg clean (and lockdep still on, on the debug kernel).
. "$(dirname "$0")/kmod_common.sh"
require_module
SECS=${PTOP_ATTACK_SECS:-600}
[[ $SECS =~ ^[0-9]+$ ]] && [ "$SECS" -ge 20 ] ||
	{ bad "PTOP_ATTACK_SECS must be a number of seconds >= 20 (got $SECS)"; finish attack_all; }
# (a reload under this load takes seconds to a minute: half the time or
# more the module is stable and every result judged)
RELOAD_SECS=${RELOAD_SECS:-$((SECS / 10 > 30 ? SECS / 10 : 30))}
# KILL the partial reader should it wait for more than its dump has
PARTIAL_TIMEOUT=$((60 * PATIENCE))
W=$(mktemp -d)
chmod 755 "$W"
M=$(modinfo -F name "$KO")
NOGROUP=$(getent group nogroup | cut -d: -f3)
PY=/usr/bin/python3
cp "$PTOP_REPO/tests/vm/genl_load.py" "$PTOP_REPO/tests/vm/nl_events.py" "$W/"
chmod 755 "$W"/*.py
GEN=$W/reload.gen
echo 0 >"$GEN"
chmod 644 "$GEN"
export PTOP_RELOAD_GEN_FILE=$GEN
as_reader() { setpriv --reuid=nobody --regid="$NOGROUP" --clear-groups "$@"; }
as_outsider() { setpriv --reuid=nobody --regid=1 --clear-groups "$@"; }
echo "attack_all: $SECS s, a reload every $RELOAD_SECS s, kernel $(uname -r), $(nproc) CPUs"

# the module, readable by group nogroup (the unprivileged reader)
rmmod "$M" && insmod "$KO" reader_gid="$NOGROUP" ||
	{ bad "reload with reader_gid=$NOGROUP"; finish attack_all; }

# --- baseline ----------------------------------------------------------------
# KASAN keeps freed objects in quarantine; shrinking a cache drains it
shrink_slabs() { local f; for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null; }
tasks() { awk '$1 == "task_struct" { print $2 }' /proc/slabinfo; }
sunreclaim() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
sleep 2
shrink_slabs
t0=$(tasks) s0=$(sunreclaim)
echo "baseline: task_struct $t0, SUnreclaim $s0 kB"

END=$(($(date +%s) + SECS))
running() { [ "$(date +%s)" -lt "$END" ]; }
gen() { cat "$GEN"; }
# overlapped G0: a reload began, ran or ended since generation G0 was read
overlapped() { local g; g=$(gen); [ "$g" != "$1" ] || [ $((g % 2)) = 1 ]; }
# netlink clients step aside while the module is being reloaded: a dump in
# progress holds a module reference, and back-to-back dumps keep rmmod
# from ever succeeding (seen: 80 refused rmmods in 554 s)
reloading() { [ $(($(gen) % 2)) = 1 ]; }

# Module rounds and reloads exclude each other: a module round holds
# $LOCK shared, the reloader exclusive; $PENDING (a reload waiting for the
# rounds in flight) keeps new rounds from starting, or rounds back to back
# would starve the reloader (flock(2) does not favour a waiting writer).
LOCK=$W/module.lock PENDING=$W/reload.pending
: >"$LOCK"
# module_round_begin FD: wait for the module to be loaded and stable and
# hold it so (false once the attack time is over: no round then)
module_round_begin() {
	while [ -e "$PENDING" ] || reloading; do
		running || return 1
		sleep 0.2
	done
	running && flock -s "$1"
}

# attack NAME BODY [module]: runs the shell function BODY in rounds until
# the end, each round while the module is loaded and stable with
# "module" (see module_round_begin), regardless of reloads without.
# BODY returns 0 (as expected) or 1 (not) and may print why; 2 (it could
# not judge) and a module round that overlapped a reload anyway count as
# not judged, which fails the run. $W/NAME.count: "ok nok unjudged
# longest_round_s"; the first 10 reasons go to $W/NAME.why; each round's
# duration to $W/rounds.secs (the end waits as long as the slowest took).
attack() {
	local name=$1 body=$2 mode=${3:-} ok=0 nok=0 unj=0 g0 out rc t longest=0 fd
	exec {fd}>>"$LOCK"
	while running; do
		if [ "$mode" = module ]; then
			module_round_begin $fd || break
		fi
		g0=$(gen) t=$(date +%s)
		out=$($body 2>&1); rc=$?
		if [ "$mode" = module ] && overlapped "$g0"; then
			rc=2 out="overlapped reload generation $g0 -> $(gen) despite the lock"
		fi
		[ "$mode" = module ] && flock -u $fd
		t=$(($(date +%s) - t))
		[ $t -gt $longest ] && longest=$t
		echo "$name $t" >>"$W/rounds.secs"
		case $rc in
		0)	ok=$((ok + 1));;
		2)	unj=$((unj + 1))
			[ $unj -le 10 ] && echo "not judged: $out" | head -n 3 >>"$W/$name.why";;
		*)	nok=$((nok + 1))
			[ $nok -le 10 ] && echo "$out" | head -n 3 >>"$W/$name.why";;
		esac
	done
	echo "$ok $nok $unj $longest" >"$W/$name.count"
}

# --- the attacks ---------------------------------------------------------------
refuse_read() {		# an outsider (not root, not in reader_gid) reads
	local o
	o=$(as_outsider tsquery -t 2>&1) && { echo "outsider read /proc: $o"; return 1; }
	[[ $o == *EACCES* || $o == *EPERM* ]] || { echo "outsider /proc: $o"; return 1; }
	o=$(as_outsider tsquery -n 2>&1) && { echo "outsider read netlink: $o"; return 1; }
	[[ $o == *EACCES* || $o == *EPERM* ]] || { echo "outsider netlink: $o"; return 1; }
	sleep 0.5
}
refuse_events() {	# unprivileged multicast join and LISTEN
	local o
	o=$(as_reader $PY "$W/nl_events.py" join 0 2>/dev/null | head -n 1)
	[ "$o" = "join EPERM" ] || { echo "nobody join: $o"; return 1; }
	o=$(as_reader $PY "$W/nl_events.py" listen 0 2>/dev/null | sed -n 2p)
	[ "$o" = "listen EPERM" ] || { echo "nobody listen: $o"; return 1; }
	sleep 0.5
}
malformed() {		# what tests/vm/test_kmod_badinput.sh expects of each
	local m e o
	for m in garbage8:OK short:EINVAL cmd:EINVAL flags:EINVAL pid:EINVAL \
		 faultw:EFAULT faultr:EFAULT nl_flags:EINVAL; do
		e=${m#*:} m=${m%%:*}
		o=$(tsquery -b "$m" 2>&1)
		case $o in
		"$m ret=$e"|"$m ret=$e unexpected=0") ;;
		*) echo "$m: $o (want $e)"; return 1;;
		esac
	done
}
churn_clients() {	# steal readers and event listeners come and go
	tsquery -t -S >/dev/null || { echo "steal reader /proc failed"; return 1; }
	tsquery -n -t -S >/dev/null || { echo "steal reader netlink failed"; return 1; }
	$PY "$W/nl_events.py" listen 0 2>/dev/null | grep -qx 'listen ok' ||
		{ echo "root listener refused"; return 1; }
}
kill_dumpers() {	# dumpers killed mid-dump, or closing their socket
	local p o
	$PY "$W/genl_load.py" dump 60 >/dev/null 2>&1 &
	p=$!
	sleep "0.$((RANDOM % 10))"
	if [ $((RANDOM % 2)) = 0 ]; then kill -KILL $p; else kill -TERM $p; fi
	wait $p 2>/dev/null
	o=$(timeout -s KILL $PARTIAL_TIMEOUT $PY "$W/genl_load.py" partial $((RANDOM % 4 + 1)) 2>&1)
	[[ $o == partial || $o == complete ]] || { echo "partial reader: $o"; return 1; }
}
zombies() {		# 1000 unwaited children, then their parent goes
	local o
	o=$($PY -c '
import os, time
for i in range(1000):
    if os.fork() == 0:
        os._exit(0)
time.sleep(3)
print("zombies done")' 2>&1)
	[ "$o" = "zombies done" ] || { echo "zombie maker: $o"; return 1; }
}
subreapers() {		# any user: subreapers adopting orphans, deep chains
	local o
	o=$(as_outsider tssubreaper 300 10 </dev/null 2>&1 | tail -n 1)
	[ "$o" = "done 10" ] || { echo "tssubreaper: $o"; return 1; }
}
orphan_loop() {		# any user: fork A, A forks B, A exits
	local o
	o=$(as_outsider tsload orphans 200 2>&1 | tail -n 1)
	[ "$o" = "done 200" ] || { echo "tsload orphans: $o"; return 1; }
}
hotplug() {		# cpu1 off, then on again
	local c=/sys/devices/system/cpu/cpu1/online
	[ -w $c ] || { echo "$c not writable: no hotplug on this kernel"; return 2; }
	echo 0 >$c || { echo "cpu1 offline failed"; return 1; }
	sleep 1
	echo 1 >$c || { echo "cpu1 online failed"; return 1; }
	sleep 1
}
# a reload waits for no more than this for the netlink readers' dumps in
# flight to end (each holds a module reference)
RMMOD_SECS=120
reloads=0 reload_busy=0 reload_bad=0 slowest=0
reloader() {		# rmmod + insmod under load, generation counted
	local g i t tl fd
	exec {fd}>>"$LOCK"
	while running; do
		sleep "$RELOAD_SECS"
		running || break
		# the module rounds in flight end first, no new ones start
		tl=$(date +%s)
		touch "$PENDING"
		flock -x $fd
		g=$(gen) t=$(date +%s)
		tl=$((t - tl))
		echo $((g + 1)) >"$GEN"
		i=0
		while :; do
			i=$((i + 1))
			rmmod "$M" 2>/dev/null && break
			[ $(($(date +%s) - t)) -lt $RMMOD_SECS ] || break
			sleep 0.05
		done
		echo "reload at $(( t - END + SECS ))s: waited ${tl}s for module rounds, rmmod after $i tries, $(( $(date +%s) - t ))s" >>"$W/reload.log"
		if [ -e "/sys/module/$M" ]; then
			reload_busy=$((reload_busy + 1))
			echo "    refused for ${RMMOD_SECS}s: refcount $(awk -v m="$M" '$1 == m { print $3 }' /proc/modules)" >>"$W/reload.log"
		elif insmod "$KO" reader_gid="$NOGROUP"; then
			reloads=$((reloads + 1))
		else
			reload_bad=$((reload_bad + 1))
			insmod "$KO" reader_gid="$NOGROUP"
		fi
		echo $((g + 2)) >"$GEN"
		flock -u $fd
		rm -f "$PENDING"
		t=$(($(date +%s) - t))
		[ $t -gt $slowest ] && slowest=$t
		echo "reload $t" >>"$W/rounds.secs"
	done
	echo "$reloads $reload_busy $reload_bad $slowest" >"$W/reload.count"
}

pids=()
# niced: the storm must not starve the clients whose answers are judged
nice -n 10 tsload forkstorm "$SECS" >/dev/null 2>&1 &
pids+=($!)
nice -n 10 ptop_churn -p threads,ign "$SECS" >/dev/null 2>&1 &
pids+=($!)
readers="proc_threads nl_threads ns_proc ns_nl nobody_proc"
tsquery -V "$SECS" -t >"$W/proc_threads.out" 2>&1 &
pids+=($!)
tsquery -V "$SECS" -n -t >"$W/nl_threads.out" 2>&1 &
pids+=($!)
unshare -pf --mount-proc tsquery -V "$SECS" -t >"$W/ns_proc.out" 2>&1 &
pids+=($!)
unshare -pf --mount-proc tsquery -V "$SECS" -n >"$W/ns_nl.out" 2>&1 &
pids+=($!)
as_reader tsquery -V "$SECS" >"$W/nobody_proc.out" 2>&1 &
pids+=($!)
# the module's answer is the verdict of these (rounds while it is loaded) ...
module_attacks="refuse_read refuse_events malformed churn_clients kill_dumpers"
# ... not of these (rounds through reloads too)
other_attacks="zombies subreapers orphan_loop hotplug"
attacks="$module_attacks $other_attacks"
for a in $module_attacks; do
	attack "$a" "$a" module &
	pids+=($!)
done
for a in $other_attacks; do
	attack "$a" "$a" &
	pids+=($!)
done
reloader &
pids+=($!)

t=0
while running; do
	sleep 30
	t=$((t + 30))
	echo "attack_all: ${t}s: reload generation $(gen), $(ps -e --no-headers | wc -l) tasks, open_files $(state open_files 2>/dev/null)"
done
# everything ends by itself soon after the end, or is stuck: a round
# begun before the end is finished and judged, so "soon" is twice the
# slowest round (or reload) so far, and at least 2 minutes times
# PATIENCE/2 (a first round still in flight: on the debug kernel a round
# or an rmmod under this load can take minutes)
slow=$(awk '$2 > m { m = $2 } END { print m + 0 }' "$W/rounds.secs" 2>/dev/null)
grace=$(( 120 * ((PATIENCE + 1) / 2) ))
[ $((2 * ${slow:-0})) -gt $grace ] && grace=$((2 * slow))
echo "attack_all: the end; waiting up to ${grace}s for the rounds in flight (slowest so far ${slow:-0}s)"
for i in $(seq "$grace"); do
	left=
	for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
	[ -z "$left" ] && break
	sleep 1
done
if [ -n "$left" ]; then
	bad "attackers still running ${grace}s after the end:$left"
	ps -eo pid=,ppid=,stat=,wchan:32=,etimes=,args= | awk '$6 !~ /^\[/' | cut -c1-160 | head -n 60
	for c in $(ps -eo pid=,args= | awk '$2 ~ /rmmod|insmod|tsquery|python|unshare|setpriv/ { print $1 }'); do
		echo "    stack of $c ($(tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null | cut -c1-80)):"
		sed 's/^/        /' "/proc/$c/stack" 2>/dev/null | head -n 12
	done
	# the whole tree: its live descendants would count as leaked tasks;
	# from one ps listing (a pgrep per task took minutes for a thousand
	# stuck ones under TCG), stopped first so that none forks meanwhile
	tree=$(ps -eo pid=,ppid= | awk -v roots="$left" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) in_tree[r[i]] = 1 }
		{ parent[$1] = $2 }
		END { do { more = 0; for (p in parent) if (!(p in in_tree) && (parent[p] in in_tree)) { in_tree[p] = 1; more = 1 } } while (more)
		      for (p in in_tree) print p }')
	# shellcheck disable=SC2086
	kill -STOP $tree 2>/dev/null
	# shellcheck disable=SC2086
	kill -KILL $tree 2>/dev/null
fi
wait
echo 1 >/sys/devices/system/cpu/cpu1/online 2>/dev/null

# --- verdict -----------------------------------------------------------------
for r in $readers; do
	v=$(grep '^validate ' "$W/$r.out")
	echo "reader $r: ${v:-$(head -c 300 "$W/$r.out")}"
	check "reader $r: answers well formed, none lost" \
		eval '[[ $v =~ ^validate\ passes=[1-9][0-9]*\ bad=0\ lost=0\  ]]'
	grep -v '^validate ' "$W/$r.out" | head -n 5
done
for a in $attacks; do
	n_ok='' n_bad='' n_unj='' n_long=''
	read -r n_ok n_bad n_unj n_long <"$W/$a.count" 2>/dev/null
	echo "attack $a: ${n_ok:-?} as expected, ${n_bad:-?} not, ${n_unj:-?} not judged; the slowest round ${n_long:-?}s"
	[ -s "$W/$a.why" ] && sed 's/^/    /' "$W/$a.why"
	[ -s "$W/$a.count" ] || echo "    no count: the attack did not end (killed above)"
	check "attack $a: judged rounds (${n_ok:-0} as expected)" [ "${n_ok:-0}" -gt 0 ]
	check "attack $a: every round as expected (${n_bad:-?} not)" [ "${n_bad:-1}" = 0 ]
	check "attack $a: every round judged (${n_unj:-?} not)" [ "${n_unj:-1}" = 0 ]
done
reloads='' reload_busy='' reload_bad='' slowest=''
read -r reloads reload_busy reload_bad slowest <"$W/reload.count" 2>/dev/null
echo "reloads: ${reloads:-?} done, ${reload_busy:-?} refused (module busy for ${RMMOD_SECS}s), ${reload_bad:-?} failed insmod; the slowest took ${slowest:-?}s"
sed 's/^/    /' "$W/reload.log" 2>/dev/null
[ -s "$W/reload.count" ] || echo "    no count: the reloader did not end (killed above)"
# as many as the kernel's speed allowed: one RELOAD_SECS after the last
check "reloads under load: at least one (${reloads:-0})" [ "${reloads:-0}" -gt 0 ]
check "every reload done: rmmod within ${RMMOD_SECS}s (${reload_busy:-?} refused)" [ "${reload_busy:-1}" = 0 ]
check "every insmod after an rmmod worked (${reload_bad:-?} failed)" [ "${reload_bad:-1}" = 0 ]
check "cpu1 online again" [ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null || echo 1)" = 1 ]
check "the module answers after it all" tsquery -t
check_idle_state "attack_all"
sleep 2
shrink_slabs
t1=$(tasks) s1=$(sunreclaim)
echo "after: task_struct $t1 (baseline $t0), SUnreclaim $s1 kB (baseline $s0 kB)"
check "task_struct objects back to the baseline ($t1 <= $t0 + 64)" [ "$t1" -le $((t0 + 64)) ]
check "unreclaimable slab back to the baseline ($s1 kB <= $s0 kB + 10% + 8 MB)" \
	[ "$s1" -le $((s0 + s0 / 10 + 8192)) ]
check_dmesg "attack_all"
rm -rf "$W"
finish attack_all
