#!/bin/bash
# vm-timeout: 1500
# Steal after many threads: per-task steal stopped counting new threads for good
# after 57,344 of them: the steal table's deleted slots were reused only
# while the table was below 7/8 full, a fill that counted the deleted
# slots too. Here 200,000 threads come and go while a steal listener
# holds the table; then a new thread must still be charged, and no charge
# may have been dropped for want of room.
#
# qemu TCG gives the guest no steal clock (every CPU's steal stays 0, and
# the module charges nothing): the test module tests/vm/steal_inject,
# built here against the running kernel, adds 1 us to a CPU's steal
# counter at every context switch, so every task switched out has steal
# to be charged, as on a busy host.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NT=${NT:-200000}

steal_inject_hold "$W" test_kmod_steal_many

# fresh_steal NAME: the steal (ns) charged to a new thread NAME that
# sleeps 2 ms 300 times (300 switches out, each charged), read while it
# lives
fresh_steal() {
	python3 -c '
import ctypes, sys, threading, time
libc = ctypes.CDLL(None)
done = threading.Event()
def run():
    libc.prctl(15, sys.argv[1].encode(), 0, 0, 0)	# PR_SET_NAME
    for i in range(300):
        time.sleep(0.002)
    done.set()
    time.sleep(600)
threading.Thread(target=run, daemon=True).start()
done.wait()
print("ready", flush=True)
time.sleep(600)
' "$1" >"$W/$1.out" &
	local p=$!
	wait_ready "$W/$1.out" $p 120
	# its "rec" line, then its "steal PID TGID NS" line
	tsquery -t -S -r | awk -v c="$1" '$1 == "rec" && $2 == "T" && $13 == c { pid = $3; next }
		pid && $1 == "steal" && $2 == pid { print $4; exit }'
	kill $p 2>/dev/null
	wait $p 2>/dev/null
}
s0=$(fresh_steal before)
check "a new thread is charged steal before the churn (${s0:-none} ns)" [ "${s0:-0}" -gt 0 ]
d0=$(state steal_dropped)
echo "before: steal_dropped $d0, steal_charges $(state steal_charges)"

# the churn: two threads' worth at a time (2 vCPUs)
t0=$(date +%s)
tsload threadchurn $((NT / 2)) >"$W/c1" &
c1=$!
tsload threadchurn $((NT / 2)) >"$W/c2" &
c2=$!
wait $c1 $c2
check "$NT threads came and went ($(( $(date +%s) - t0 )) s)" \
	eval 'grep -q "done $((NT / 2))" "$W/c1" && grep -q "done $((NT / 2))" "$W/c2"'
d1=$(state steal_dropped)
echo "after: steal_dropped $d1, steal_charges $(state steal_charges)"
check "no steal charge dropped during the churn ($((d1 - d0)) dropped)" [ "$d1" = "$d0" ]

s1=$(fresh_steal after)
check "a new thread is charged steal after $NT threads (${s1:-none} ns)" [ "${s1:-0}" -gt 0 ]
check "... and not dropped ($(state steal_dropped) dropped in all)" [ "$(state steal_dropped)" = "$d0" ]

kill $hq
wait $hq 2>/dev/null
check "listener gone: steal table freed" wait_state steal_bytes 0
rmmod steal_inject || bad "rmmod steal_inject"
check_idle_state "steal_many"
check_dmesg "steal_many"
rm -rf "$W"
finish test_kmod_steal_many
