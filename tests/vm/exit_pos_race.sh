#!/bin/bash
# vm-timeout: 600
# A group's EXIT record position (a review found: "the
# position rule for groups holds within the 1,024 newest ring entries
# only"). A
# pass leaves out a group whose EXIT record was written before it began;
# while one of its threads is not past exit_notify() the module told that
# by looking for the record among the ring's 1,024 newest before the
# pass's head: with more records written between the group's and the
# pass, it was not found and the group was live in the answer though its
# EXIT record was already out (live after dead). The group's record now
# keeps the position (struct ptop_acct, exit_pos): any distance, O(1).
# The window is a few instructions wide without help: this script needs
# the test build of `make vm-exit-pos` (KCFLAGS=-DPTOP_TS_TEST_EXIT_WINDOW,
# built on the host, loaded with PTOP_VM_KO), whose exit probe waits
# after the group's EXIT record of a task named ptop-exitwin while
# test_exit_hold is set. Not a test_*.sh: the plain module has no window.
# Each round: a child named ptop-exitwin is killed; while its exit waits
# in the window, tsload threadchurn writes N THREAD records (N = 200, a
# control the old look-up also sees, then 2,000), and a full answer is
# taken; the child must not be a live GROUP in it. Checks also that the
# child was still in the window after the answer (state R, not Z).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
HOLD=/sys/module/ptop_taskstats/parameters/test_exit_hold
[ -w "$HOLD" ] || { bad "the test build is loaded ($HOLD)"; finish exit_pos_race; }
sysctl -q -w kernel.threads-max=100000

round() {	# round N TAG: prints "round TAG N pid=... live=... state_after=..."
	python3 - "$1" "$2" "$HOLD" <<'PY'
import ctypes, os, signal, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
n, tag, hold = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def state(pid):
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
def dmesg_has(s):
    return s in subprocess.run(["dmesg"], capture_output=True, text=True).stdout
r, w = os.pipe()
c = os.fork()
if c == 0:
    libc.prctl(15, b"ptop-exitwin", 0, 0, 0)	# PR_SET_NAME
    os.write(w, b"x")
    while True:
        signal.pause()
os.close(w)
os.read(r, 1)
open(hold, "w").write("1\n")
os.kill(c, signal.SIGKILL)
mark = f"test build: exit window for {c}\n"
for _ in range(200):
    if dmesg_has(f"exit window for {c}"):
        break
    time.sleep(0.02)
entered = dmesg_has(f"exit window for {c}")
churn = subprocess.run(["tsload", "threadchurn", str(n)], capture_output=True, text=True).stdout.strip()
ans = subprocess.run(["tsquery", "-r"], capture_output=True, text=True).stdout
after = state(c)
open(hold, "w").write("0\n")
os.waitpid(c, 0)
live = sum(1 for l in ans.splitlines() if l.split()[:3] == ["rec", "G", str(c)])
gone = sum(1 for l in ans.splitlines() if l.split()[:2] == ["rec", "G"])
print(f"round {tag} {n} pid={c} entered={int(entered)} churn='{churn}' groups={gone} live={live} state_after={after}", flush=True)
PY
}

ROUNDS=${ROUNDS:-3}
for i in $(seq "$ROUNDS"); do
	round 200 control >>"$W/rounds" 2>&1
	round 2000 many >>"$W/rounds" 2>&1
done
cat "$W/rounds"
nr=$(grep -c '^round ' "$W/rounds")
held=$(grep -c 'entered=1 .* state_after=R' "$W/rounds")
check "all $((ROUNDS * 2)) rounds ran ($nr)" [ "$nr" = $((ROUNDS * 2)) ]
check "the child was in the window for the whole answer in every round ($held of $nr)" [ "$held" = "$nr" ]
check "with 200 records after its EXIT record, the dying group is not live ($(grep -c 'control.* live=0' "$W/rounds") of $ROUNDS)" \
	[ "$(grep -c 'control.* live=0' "$W/rounds")" = "$ROUNDS" ]
check "with 2,000 records after its EXIT record, the dying group is not live ($(grep -c 'many.* live=0' "$W/rounds") of $ROUNDS)" \
	[ "$(grep -c 'many.* live=0' "$W/rounds")" = "$ROUNDS" ]
check_dmesg "exit pos race"
check_idle_state "exit pos race"
finish exit_pos_race
