#!/bin/bash
# Where ptop -b's time goes at N sleepers (+ 8 busy) with the module
# (bench_vm_kmod.md, "Where batch's time goes"): user and system time per
# steady refresh (a run of -n 22 minus one of -n 2, over 20), with stdout
# a pipe (as bench/run reads it), with a 64 KiB stdout buffer (stdbuf),
# to /dev/null, and with --top=50; then the system calls of one run
# (strace -c) and the write() calls of 3 refreshes.
#   tests/vm/run tests/vm/diag/batch_profile.sh [N]
N=${1:-10000}
tsload sleepers $N > /tmp/sl.out & sl=$!
until grep -q ready /tmp/sl.out 2>/dev/null; do sleep 1; done
tsload busy 8 > /tmp/busy.out & busy=$!
sleep 3
measure() { # label sink args...: ptop's own steady user and sys ms per refresh
	python3 - "$@" <<'PY'
import os, subprocess, sys
label, sink, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
def one(n):
    out = subprocess.PIPE if sink == "pipe" else subprocess.DEVNULL
    p = subprocess.Popen(argv + ["-n", str(n)], stdout=out)
    if sink == "pipe":
        while p.stdout.read1(1 << 16):
            pass
    _, st, ru = os.wait4(p.pid, 0)
    return ru.ru_utime, ru.ru_stime
u2, s2 = one(2)
u22, s22 = one(22)
print(f"PROFILE {label}: user {(u22 - u2) * 50:.1f} ms, sys {(s22 - s2) * 50:.1f} ms per refresh"
      f" (-n 2: {u2:.2f}+{s2:.2f} s, -n 22: {u22:.2f}+{s22:.2f} s)", flush=True)
PY
}
P="ptop -b --no-config --source=kmod -d 1"
measure pipe pipe $P
measure pipe64k pipe stdbuf -o65536 $P
measure null null $P
measure top50 pipe $P --top=50
strace -c -f -o /tmp/strace.txt $P -n 12 | cat >/dev/null
echo "STRACE (ptop -b -n 12 into a pipe):"; head -20 /tmp/strace.txt
strace -f -e trace=write -o /tmp/w.txt $P -n 3 | cat >/dev/null
echo "WRITES of 3 refreshes: $(grep -c 'write(1' /tmp/w.txt), bytes $(grep 'write(1' /tmp/w.txt | awk -F'= ' '{s+=$NF} END {print s}')"
kill $sl $busy; wait
