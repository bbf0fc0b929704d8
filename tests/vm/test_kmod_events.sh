#!/bin/bash
# Process events: `ptop --events` logs fork, exec, exit and reparent of a
# scripted tree with increasing CLOCK_BOOTTIME timestamps; the exec probe
# (and event messages) exist only while someone listens.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)

check "no listener: exec probe detached" [ "$(state exec_probe)" = detached ]
check "no listener: 0 event listeners" [ "$(state event_listeners)" = 0 ]
sent0=$(state events_sent)
bash -c 'true' ; sleep 0.2
check "no listener: no event sent" [ "$(state events_sent)" = "$sent0" ]

# the tree's events checked by a script, polled while ptop still listens
cat >"$W/check.py" <<'PY'
import sys
ev = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
t = [float(e[0]) for e in ev]
types = {e[1] for e in ev}
ok = True
quiet = len(sys.argv) > 2
def say(c, m):
    global ok
    if not quiet:
        print(("ok   - " if c else "FAIL - ") + m)
    ok &= c
say(len(ev) > 0, f"{len(ev)} events logged")
say(all(a <= b for a, b in zip(t, t[1:])), "timestamps never go backwards")
for k in ("fork", "exec", "exit", "reparent"):
    say(k in types, f"a {k} event is there")
# the orphan: forked, its parent exits, it is reparented, it execs, exits
orph = [e for e in ev if e[1] == "reparent"]
say(len(orph) > 0, "the orphan's reparent event is there")
if orph:
    pid = orph[0][2]
    seq = [e[1] for e in ev if e[2] == pid]
    say(seq[0] == "fork" and "reparent" in seq and seq[-1] == "exit",
        f"pid {pid.split('=')[1]}: {' '.join(seq)} (fork first, exit last)")
sys.exit(0 if ok else 1)
PY

# ptop listens until SIGTERM (-n 120, times PATIENCE: a bound, not the end of the test);
# the tree starts only once the module counts the listener
ptop --events -d 1 -n $((120 * PATIENCE)) >"$W/ev" 2>"$W/err" &
p=$!
check "listener: exec probe attached" wait_state exec_probe attached 30
check "listener: 1 event listener" wait_state event_listeners 1 30
# a raw listener beside it (tests/vm/nl_events.py): the events' bytes as
# the module sent them, each comm's 16 bytes zero after its NUL
python3 "$PTOP_REPO/tests/vm/nl_events.py" listen $((300 * PATIENCE)) >"$W/nl" 2>"$W/nlready" &
nl=$!
check "raw listener ready (2 event listeners)" \
	eval 'wait_line "$W/nlready" ready && wait_state event_listeners 2 30'
# the scripted tree: a parent forks a child that forks a grandchild and
# exits at once (the grandchild is reparented to init), the grandchild
# execs sleep; a thread of a process execs (non-leader exec).
bash -c 'exec -a ev-parent bash -c "
	bash -c \"(exec -a ev-orphan sleep 0.5) & exit 0\" &
	wait"'
# a comm of 15 bytes, then an exec to a short one: the task's own comm
# keeps the old bytes after the new NUL (exec copies the name without
# padding on older kernels); an event must not carry them
bash -c 'printf ev-commtail-15c >/proc/self/comm; (exec sleep 0.1); exec sleep 0.1'
# up to 60 s for the orphan's exit to reach the log (slow on a loaded host)
for i in $(seq 600); do
	python3 "$W/check.py" "$W/ev" quiet && break
	sleep 0.1
done
# ptop has logged the orphan's exit: the raw listener has its events too
wait_line "$W/nl" '^event fork .*comm=ev-commtail-15c' 10
kill -TERM $p
wait $p
st=$?
kill $nl; wait $nl 2>/dev/null
check "ptop --events exits 0 on SIGTERM ($st: $(cat "$W/err"))" [ $st = 0 ]
n=$(grep -c '^event ' "$W/nl"); nb=$(grep -c ' tail=bad:' "$W/nl")
grep ' tail=bad:' "$W/nl" | head -n 5
check "raw listener: $n events, the bytes after each comm's NUL all 0 ($nb not)" \
	eval '[ "$n" -gt 0 ] && [ "$nb" = 0 ]'
check "raw listener: the 15-byte comm's fork and the short exec after it" \
	eval 'grep -q "^event fork .*comm=ev-commtail-15c" "$W/nl" &&
	      grep -q "^event exec .*comm=sleep" "$W/nl"'
check "listener gone: exec probe detached" wait_state exec_probe detached
check "listener gone: 0 event listeners" wait_state event_listeners 0
head -5 "$W/ev"
echo "... $(wc -l <"$W/ev") events"
python3 "$W/check.py" "$W/ev"
check "fork/exec/exit/reparent of the scripted tree, increasing timestamps" [ $? = 0 ]
check_idle_state "events"
check_dmesg "events"
rm -rf "$W"
finish test_kmod_events
