#!/bin/bash
# vm-smp: 2,maxcpus=4
# No kernel memory in the bytes of an answer that carry no value (struct
# ptop_ts_cpu was copied to user space with its `pad`
# uninitialised, a stack leak). Every answer kind, over /proc/taskstats
# and netlink: process and thread answers, full and since-N (live, EXIT
# THREAD/GROUP, exec and late records: ptop_churn's waited, self-reaped,
# orphaned, threaded and exec'ing children), with per-task steal, paged
# (max_count); every byte of struct ptop_ts_cpu's pad, struct
# ptop_ts_record's pad[] and pad2 and its comm after the NUL must be 0
# (tsquery -P). struct ptop_ts_answer and struct ptop_ts_event have no
# padding (every byte a field).
# 4 possible CPUs, 2 online, and then cpu1 offline: a CPU that does not
# read its own instant (not online, or offline since) keeps the reading
# made on the pass's stack (kmod/cpus.c ptop_ts_cpus_read()); online
# CPUs' come from a zeroed per-CPU copy. Only the debug kernel
# (CONFIG_INIT_STACK_ALL_PATTERN) shows a missing memset: Debian's
# zeroes uninitialised stack variables (INIT_STACK_ALL_ZERO).
# Its churn under queries froze the 6.1 guest in 2 of 5 runs (and CI of
# 2026-12-07) until 69ab58e: a walk's wait for a pending switch under a
# siglock, bounded by a local_clock() that stood still (pass_pending.c).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
possible=$(cat /sys/devices/system/cpu/possible)
echo "possible CPUs: $possible, online: $(cat /sys/devices/system/cpu/online)"
check "4 possible CPUs ($possible)" [ "$possible" = 0-3 ]
grep -E 'CONFIG_INIT_STACK_ALL_(PATTERN|ZERO)=' "/boot/config-$(uname -r)" \
	2>/dev/null | sed 's/^/kernel: /'

# its own process group (setsid): killed as a whole at the end
setsid ptop_churn 3600 >/dev/null 2>&1 &
churn=$!
tsload threads 20 >"$W/threads" &
th=$!
wait_ready "$W/threads" $th
sleep 1

# queries NAME: every kind on both transports, each answer checked
queries() {
	local name=$1 src t s out st
	for src in "" -n; do
		for t in "" -t; do
			for s in "" -S; do
				out=$(tsquery -P $src $t $s -V 2 2>"$W/err"); st=$?
				echo "$name ${src:-proc} ${t:--p} ${s:--} since-N: $out $(head -c 300 "$W/err")"
				check "$name: ${src:-proc} ${t:-procs} ${s:-nosteal} since-N answers, pads 0 ($st)" \
					eval '[ $st = 0 ] && [[ $out =~ pads\ cpus=[1-9][0-9]*\ records=[1-9][0-9]*\ nonzero=0 ]]'
			done
			out=$(tsquery -P $src $t -m 5 2>"$W/err"); st=$?
			echo "$name ${src:-proc} ${t:--p} paged: $(tr '\n' ' ' <<<"$out") $(head -c 300 "$W/err")"
			check "$name: ${src:-proc} ${t:-procs} paged (max_count 5), pads 0 ($st)" \
				eval '[ $st = 0 ] && [[ $out =~ more=1 ]] && [[ $out =~ nonzero=0 ]]'
		done
	done
}

queries "cpus 0-1 of 0-3"
if echo 0 >/sys/devices/system/cpu/cpu1/online; then
	echo "online: $(cat /sys/devices/system/cpu/online)"
	queries "cpu1 offline"
	echo 1 >/sys/devices/system/cpu/cpu1/online
	check "cpu1 back online" [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]
else
	bad "cpu1 offline"
fi

# the walks' waits for a pending switch (kmod/pass_pending.c): one that
# ran out is where the old bound by local_clock() froze the guest
grep '^walk_pending' /proc/ptop_taskstats_state | tr '\n' ' '; echo
kill -- -$churn 2>/dev/null
kill $th 2>/dev/null
wait $churn $th 2>/dev/null
sleep 1
check_idle_state "cpu_pad"
check_dmesg "cpu_pad"
rm -rf "$W"
finish test_kmod_cpu_pad
