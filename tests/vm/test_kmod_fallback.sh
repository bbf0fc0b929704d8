#!/bin/bash
# The module unloaded while ptop runs: `ptop -b --source=auto` (which
# picked the module) says so on stderr and in the text output, continues
# with the best stock source from a new first snapshot, and prints every
# interval it was asked for, exit 0. With --source=kmod (forced) there is
# no fallback: exit 1 with a message that names the module's file.
# 150 intervals of 0.2 s: under load rmmod can take over 10 s, and it must
# land inside the run.
. "$(dirname "$0")/kmod_common.sh"
require_module
command -v ptop >/dev/null || { echo "FAIL - build/ptop missing"; exit 1; }
W=$(mktemp -d)

heads() { grep -c '^ptop ' "$1"; }
# wait_heads FILE N: until ptop printed N intervals (30 s at most)
wait_heads() {
	local i
	for i in $(seq 300); do
		[ "$(heads "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

ptop -b --source=auto -d 0.2 -n 150 -o PID,user,sys,total,COMMAND \
	>"$W/auto.out" 2>"$W/auto.err" &
pt=$!
check "auto: ptop printed 3 intervals before rmmod" wait_heads "$W/auto.out" 3
check "auto: those came from the module" \
	grep -q '^ptop .*source kmod_proc' "$W/auto.out"
t0=$(date +%s%N)
rmmod ptop_taskstats || bad "rmmod while ptop runs"
echo "rmmod took $(( ($(date +%s%N) - t0) / 1000000 )) ms, ptop had printed $(heads "$W/auto.out") intervals"
wait $pt
rc=$?
head -n 3 "$W/auto.err"
check "auto: ptop exits 0 after the module went (got $rc)" [ $rc = 0 ]
check "auto: all 150 intervals printed (got $(heads "$W/auto.out"))" \
	[ "$(heads "$W/auto.out")" = 150 ]
check "auto: stderr says the module source failed and what it continues with" \
	grep -Eq '^ptop: source kmod_proc failed .*continuing with (taskstats_nl|procfs)' "$W/auto.err"
check "auto: the text output says so too (a # line)" \
	grep -Eq '^# source kmod_proc failed .*continuing with' "$W/auto.out"
after=$(sed -n '/^# source kmod_proc failed/,$p' "$W/auto.out" | grep '^ptop ' | head -n 1)
check "auto: the intervals after it come from the stock source ($after)" \
	grep -Eq 'source (taskstats_nl|procfs)' <<<"$after"
check "auto: the first interval after it adds up like any other (no negative or huge rows)" \
	awk '/^# source kmod_proc failed/ { s = 1; next }
	     s && /^ptop / { n++ } s && n == 1 && $1 ~ /^[0-9]+$/ &&
	     ($4 + 0 > 250 || $4 + 0 < 0) { bad = 1 } END { exit bad }' "$W/auto.out"

# forced: no fallback, a clear error
insmod "$KO" || bad "insmod"
ptop -b --source=kmod -d 0.2 -n 150 -o PID,COMMAND >"$W/forced.out" 2>"$W/forced.err" &
pt=$!
check "forced: ptop printed 2 intervals before rmmod" wait_heads "$W/forced.out" 2
rmmod ptop_taskstats || bad "rmmod while ptop --source=kmod runs"
wait $pt
rc=$?
head -n 3 "$W/forced.err"
check "forced: ptop exits 1 (got $rc)" [ $rc = 1 ]
check "forced: stderr names the module's file and says it was unloaded" \
	grep -q "^ptop: kmod_proc: .*taskstats.*module was unloaded" "$W/forced.err"
check "forced: no fallback message" eval '! grep -q continuing "$W/forced.err"'
insmod "$KO" || bad "insmod again"

check_dmesg "fallback"
rm -rf "$W"
finish test_kmod_fallback
