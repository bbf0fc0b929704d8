#!/bin/bash
# The exit probe of a group's last thread, with an
# events listener open, reported REPARENT by a walk of every process on
# the machine, with preemption off (tracepoint probes run so): 172 us ->
# 6 ms mean at 10,000 processes. It now walks the group's accounting
# children (acct.c), and every process only for a group that may have
# real children outside them (a reaper of orphans).
#
# Measured with the function_graph tracer on the probe
# (ptop_ts_probe_exit), as the median over 100 process exits with 10,000
# sleeping processes present, without and then with a listener; judged
# as a ratio, so that a loaded host (which stretches both) does not
# decide it: the walk made it 35x, sending the events costs far less
# than 5x. The REPARENT events themselves are checked too, including a
# subreaper that adopted an orphan its accounting children do not hold.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NP=${NP:-10000}
tracefs_mount || { bad "tracefs"; finish test_kmod_exit_cost; }

# the probe's durations (us) over 100 exits, median
exits() { traced_median ptop_ts_probe_exit "$W/d" tsload shortlived 100 0; }
listener() {
	python3 "$PTOP_REPO/tests/vm/nl_events.py" listen 600 >"$W/ev" 2>"$W/ready" &
	lp=$!
	wait_ready "$W/ready" $lp 60
	check "listener set up ($(head -2 "$W/ev" | tr '\n' ' '))" grep -q 'listen ok' "$W/ev"
}

# --- REPARENT still right: a subreaper S, S -> A -> B -> G; B exits (G
# goes to S, whose accounting children do not hold it), then S (G and A
# go to init)
listener
python3 - <<'PY' >"$W/tree"
import ctypes, os, sys, time
libc = ctypes.CDLL(None)
def name(n):
    libc.prctl(15, n, 0, 0, 0)		# PR_SET_NAME
s = os.fork()
if s == 0:
    name(b"ev-s")
    libc.prctl(36, 1, 0, 0, 0)		# PR_SET_CHILD_SUBREAPER
    if os.fork() == 0:
        name(b"ev-a")
        if os.fork() == 0:
            name(b"ev-b")
            g = os.fork()
            if g == 0:
                name(b"ev-g")
                time.sleep(6)
                os._exit(0)
            time.sleep(1)
            os._exit(0)
        time.sleep(5)
        os._exit(0)
    time.sleep(3)
    os._exit(0)
print("s", s, flush=True)
os.waitpid(s, 0)
time.sleep(4)
PY
spid=$(awk '$1 == "s" { print $2 }' "$W/tree")
kill $lp; wait $lp 2>/dev/null
grep reparent "$W/ev"
check "G reparented to the subreaper S ($spid)" grep -q "reparent .*other=$spid comm=ev-g" "$W/ev"
check "G reparented to init when S exits" grep -q 'reparent .*other=1 comm=ev-g' "$W/ev"
check "A reparented to init when S exits" grep -q 'reparent .*other=1 comm=ev-a' "$W/ev"
check "B's exit reparents nothing but G" [ "$(grep -c 'reparent .*comm=ev-[sb]' "$W/ev")" = 0 ]

# --- the cost with many processes
sysctl -q -w kernel.threads-max=100000
start_sleepers "$NP" "$W/sl" 300
graph_trace ptop_ts_probe_exit || bad "the function_graph tracer on the module's probe"
base=$(exits)
nb=$(wc -l <"$W/d")
check "100 exits traced without a listener ($nb, median ${base} us)" [ "$nb" -ge 100 ]
listener
with=$(exits)
nw=$(wc -l <"$W/d")
kill $lp; wait $lp 2>/dev/null
echo "exit probe median at $NP processes: ${base} us without a listener, ${with} us with one"
check "100 exits traced with a listener ($nw)" [ "$nw" -ge 100 ]
check "exit probe with a listener within 5x of without (${with} vs ${base} us)" \
	awk -v w="$with" -v b="$base" 'BEGIN { exit !(w != "" && b != "" && w <= 5 * (b > 1 ? b : 1)) }'
graph_trace_off
# the sleepers first, while their parent lives: 10,000 exits at once
# after it would each check the whole process group in the kernel
# (will_become_orphaned_pgrp(), with the tasklist lock): an RCU stall
pkill -KILL -P $sl
for i in $(seq 600); do
	[ "$(ps -e -o stat= | grep -c '^Z')" -ge "$NP" ] && break
	sleep 0.2
done
kill $sl
wait $sl 2>/dev/null
for i in $(seq 300); do [ "$(ps -e -o stat= | grep -c '^Z')" -lt 10 ] && break; sleep 0.2; done
check "events failed: $(state events_failed) of $(state events_sent) (listener gone)" \
	wait_state event_listeners 0
check_idle_state "exit_cost"
check_dmesg "exit_cost"
rm -rf "$W"
finish test_kmod_exit_cost
