#!/bin/bash
# Netlink dumpers that die or close their socket in the middle of a full
# PIDS dump (20,000 threads: a 4.6 MB answer paged out over many recv()s)
# leave nothing behind: the dump's answer is freed (answer_bytes and
# open_files back to 0), no module reference stays, and rmmod succeeds.
#   - stopped mid-dump (SIGSTOP: the answer is pinned while it pages),
#     then SIGKILL;
#   - SIGTERM / SIGKILL at random moments of back-to-back dumps (during
#     the pass or during the paging);
#   - a reader that takes a few messages and exits without reading the
#     rest (its socket closes mid-dump).
# Each dumper is the python process itself, killed by its own pid (a shell
# function run with & is a subshell: killing it leaves python running).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NT=20000
GL=$PTOP_REPO/tests/vm/genl_load.py
start_threads $NT "$W/thr"

# wait_ge NAME MIN: up to 30 s (times PATIENCE) for a state value >= MIN
wait_ge() {
	local i v
	for i in $(seq $((300 * PATIENCE))); do
		v=$(state "$1")
		[ "${v:-0}" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# stopped PID: up to 10 s (times PATIENCE) for the process to be in state T (a SIGSTOP sent
# during recv() takes effect when the syscall returns)
stopped() {
	local i
	for i in $(seq $((100 * PATIENCE))); do
		[ "$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null)" = T ] && return 0
		sleep 0.1
	done
	return 1
}

# 1. stopped in the middle of the paging, then killed. A dumper stopped
# between two dumps (answer read, next request not sent yet) holds
# nothing: that try does not count and another dumper starts; 5 must be
# caught mid-dump within 40 tries.
mid=0 full=0 tries=0
while [ $mid -lt 5 ] && [ $tries -lt 40 ]; do
	tries=$((tries + 1))
	/usr/bin/python3 "$GL" dump 60 >/dev/null 2>&1 &
	p=$!
	if wait_ge open_files 1; then
		kill -STOP $p
		if stopped $p; then
			o=$(state open_files); a=$(state answer_bytes)
			if [ "$o" -ge 1 ]; then
				mid=$((mid + 1))
				[ "$a" -gt 1000000 ] && full=$((full + 1))
			fi
		fi
	fi
	kill -KILL $p
	wait $p 2>/dev/null
	wait_state open_files 0
done
echo "stopped dumpers: $mid caught mid-dump in $tries tries"
check "stopped dumpers: 5 caught mid-dump (got $mid in $tries tries)" [ $mid = 5 ]
check "stopped dumpers: each held a full answer (> 1 MB) when killed ($full of $mid)" [ $full = $mid ]
check "killed mid-dump: open_files back to 0" wait_state open_files 0
check "killed mid-dump: answer_bytes back to 0" wait_state answer_bytes 0

# 2. SIGTERM / SIGKILL at random moments
busy=0
for n in $(seq 1 12); do
	/usr/bin/python3 "$GL" dump 60 >/dev/null 2>&1 &
	p=$!
	sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
	sleep $((n % 3))
	[ "$(state open_files)" -ge 1 ] && busy=$((busy + 1))
	if [ $((n % 2)) = 0 ]; then kill -TERM $p; else kill -KILL $p; fi
	wait $p 2>/dev/null
done
echo "random kills: $busy of 12 landed while a dump was open"
# (how many land mid-dump varies; part 1 makes sure 5 do)
check "random kills: open_files back to 0" wait_state open_files 0
check "random kills: answer_bytes back to 0" wait_state answer_bytes 0

# 3. a reader that closes its socket after a few messages
good=0
for k in 1 2 8; do
	/usr/bin/python3 "$GL" partial $k >"$W/part" 2>&1 && grep -q partial "$W/part" &&
		good=$((good + 1))
done
check "partial readers: 3 read part of a dump and exited ($good)" [ $good = 3 ]
check "partial readers: open_files back to 0" wait_state open_files 0
check "partial readers: answer_bytes back to 0" wait_state answer_bytes 0

# the module still answers, then goes
check "a full dump still works" /usr/bin/python3 "$GL" dump 0.1
kill $th
wait $th 2>/dev/null
check_idle_state "dump_kill"
check_dmesg "dump_kill"
m=$(modinfo -F name "$KO")
refs=$(awk -v m="$m" '$1 == m { print $3 }' /proc/modules)
check "no module reference left (refcount ${refs:-?})" [ "${refs:-1}" = 0 ]
check "rmmod succeeds" rmmod "$m"
check "insmod again" insmod "$KO"
finish "dump_kill"
