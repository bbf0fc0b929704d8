#!/bin/bash
# Readers and listeners that come and go by the hundred while every CPU is
# busy switching: the module must not rewrite kernel text for them. It
# used to attach and detach its sched_switch probe (tracking, steal) and
# its sched_process_exec probe (events) per reader or listener; each time
# the kernel patched the tracepoint's call sites under the running CPUs
# (text_poke_bp: int3, then an IPI to every CPU, three times). On 6.12
# under qemu's multi-threaded TCG that patching sometimes oopses the guest
# ("Oops: int3" at the patched site, __schedule: seen in
# test_exact_vs_top, and with no module at all when tracefs toggles the
# sched_switch event; the harness now runs thread=single, so the old
# module crashes here only with PTOP_VM_ACCEL=tcg,thread=multi). Now the
# probes stay attached from load to unload.
# Checks: 100 reader/listener cycles with tracking lingering 0 s all
# succeed, every source is off again after, and the kernel stays clean
# (the harness fails on any oops or panic). The old module oopsed the
# 6.12 guest in 2 runs of 2 (the second between cycles 50 and 100); IPIs are counted
# by test_kmod_nohz (here the busy CPUs' own exec/exit flushes swamp
# them).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
N=100

# tracking goes off at once when the last reader goes (track_linger is
# read-only: reload with 0)
m=$(modinfo -F name "$KO")
rmmod "$m" && insmod "$KO" track_linger=0 || bad "reload with track_linger=0"
check "track_linger 0" [ "$(cat /sys/module/$m/parameters/track_linger)" = 0 ]

# every CPU busy and switching; niced, so that the cycles keep going
nice -n 19 ptop_workload spin "$(nproc)" &
spin=$!
nice -n 19 sh -c 'while :; do /bin/true; done' &
forker=$!
trap 'kill $spin $forker 2>/dev/null; pkill -f "ptop_workload spin" 2>/dev/null' EXIT
sleep 0.5

done_n=0
for i in $(seq $N); do
	case $((i % 4)) in
	0) tsquery -t -S >/dev/null ;;		# /proc reader + steal listener
	1) tsquery -n -t -S >/dev/null ;;	# netlink dump + steal listener
	2) tsquery -t >/dev/null ;;		# plain /proc reader (tracking)
	3) /usr/bin/python3 "$PTOP_REPO/tests/vm/nl_events.py" listen 0 \
		>/dev/null 2>&1 ;;		# events listener
	esac || { bad "cycle $i failed"; break; }
	done_n=$i
	[ $((i % 25)) = 0 ] && echo "cycles: $i"
done
kill $spin $forker 2>/dev/null
wait $spin $forker 2>/dev/null
check "$N reader/listener cycles done (got $done_n)" [ "$done_n" = $N ]
check "tracking off again" wait_state track_probe detached
check "steal off again" wait_state steal_probe detached
check "events off again" wait_state exec_probe detached
check_idle_state "listener_churn"
check_dmesg "listener_churn"
finish "listener_churn"
