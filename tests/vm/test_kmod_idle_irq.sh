#!/bin/bash
# The idle task's time outside idle (the module's precision under
# host load). Without IRQ_TIME_ACCOUNTING (Debian's kernels) an interrupt
# on an idle CPU is charged to the idle task, which has no row, and the
# kernel's idle count stops at irq_enter(): that time was in no counter of
# an answer, so an interval fell short by it (test_exact_vs_top's workload
# at host load 21: one CPU's idle task ran 117.5 ms in an interval, idle
# counted 59.4 ms, the interval 54.9 ms short). The module now measures
# it per CPU and gives it as irq_ns with PTOP_TS_ANSF_IDLE_IRQ.
#
# CPU 1 idle, with the virtio interrupts routed to it and a reader of
# files over the 9p root on CPU 0 (no forks), one busy loop on CPU 0; 40
# process answers 0.25 s apart. Asserts: every answer has IDLE_IRQ; each
# interval's rows (live groups' own + x* + c*) + idle + irq is ncpu x
# the interval within 0.5%, and so are the 40 together; some such time
# was measured. Printed per interval: the same without irq, what the
# module before gave.
# Before (main at 40a344d, host load 26): no answer had the flag; the 40
# intervals 6.48 s short of 28.1 s, every one outside 0.5% (one CPU's 9p
# interrupts: up to 237 ms in an 800 ms interval). After: every interval
# within 0.02 ms (irq 1.38 s of 23.1 s). A first version that timed the
# idle task's runs with sched_clock in the switch probe, not the
# runqueue clock, missed 11 of 40 by +4 to +16 ms (docs/reliability.md).
. "$(dirname "$0")/kmod_common.sh"
require_module
[ "$(nproc)" -ge 2 ] || { echo "FAIL - needs 2 CPUs"; exit 1; }
W=$(mktemp -d)

# the virtio interrupts to CPU 1 (some refuse: those stay)
for f in /proc/irq/*/smp_affinity_list; do
	echo 1 >"$f" 2>/dev/null
done
taskset -c 0 ptop_workload spin 1 &
spin=$!
taskset -c 0 python3 -c '
import os
while True:
    for d in ("/usr/bin", "/usr/lib/x86_64-linux-gnu"):
        for n in os.listdir(d):
            try:
                with open(os.path.join(d, n), "rb") as f:
                    while f.read(1 << 16):
                        pass
            except OSError:
                pass
' &
rd=$!
trap 'kill $spin $rd 2>/dev/null; pkill -f "ptop_workload spin" 2>/dev/null' EXIT
sleep 1
grep -i virtio /proc/interrupts | head -4
echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"

taskset -c 0 python3 - "$W" <<'EOF'
import os, struct, sys, time
HDR = "=HHIQQQIIII"; CPU = "=QQQQQII"
REC = "=HHHHIIIIIIIIc7s16sQQQ" + "Q" * 14 + "QQIIQ"
IDLE_IRQ = 1 << 8
fd = os.open("/proc/taskstats", os.O_RDWR)
seq, state, prev, fails, noflag, irq_sum = 0, {}, None, 0, 0, 0
old_fails = tot_err = tot_cap = 0
for k in range(41):
    os.write(fd, struct.pack("=IIQII", 1, 0, seq, 0, 0))
    buf = b""
    while True:
        b = os.read(fd, 1 << 22)
        if not b:
            break
        buf += b
    ver, size, flags, seq, tns, bns, count, ncpu, rsz, nxt = struct.unpack_from(HDR, buf, 0)
    cpus = [struct.unpack_from(CPU, buf, size + i * 48) for i in range(ncpu)]
    off = size + ncpu * 48
    for i in range(count):
        f = struct.unpack_from(REC, buf, off + i * rsz)
        if f[2] != 2:
            continue
        key = (f[5], f[15])
        if f[3] & 1:
            state.pop(key, None)
        else:
            state[key] = f[18] + f[19] + f[22] + f[23] + f[25] + f[26]
    if not flags & IDLE_IRQ:
        noflag += 1
    online = [c for c in cpus if c[5]]
    cur = (tns, sum(state.values()), sum(c[0] + c[1] for c in online),
           sum(c[3] + c[4] for c in online), len(online), flags & IDLE_IRQ)
    if prev:
        dt = cur[0] - prev[0]
        err = cur[1] - prev[1] + cur[2] - prev[2] - cur[4] * dt
        irq = cur[3] - prev[3] if cur[5] and prev[5] else 0
        irq_sum += irq
        bad = abs(err + irq) > 0.005 * cur[4] * dt
        fails += bad
        old_fails += abs(err) > 0.005 * cur[4] * dt
        tot_err += err
        tot_cap += cur[4] * dt
        print(f"interval {k}: {dt / 1e6:.1f} ms, rows+idle-ncpu*dt {err / 1e6:+.3f} ms, "
              f"irq {irq / 1e6:.3f} ms, with it {(err + irq) / 1e6:+.3f} ms{' FAIL' if bad else ''}")
    prev = cur
    time.sleep(0.25)
print(f"40 intervals: {tot_cap / 1e6:.1f} ms of CPU time; rows + idle {tot_err / 1e6:+.1f} ms off "
      f"({old_fails} intervals outside 0.5%), with irq {(tot_err + irq_sum) / 1e6:+.1f} ms "
      f"({fails} outside)")
tot_ok = int(abs(tot_err + irq_sum) <= 0.005 * tot_cap)
open(sys.argv[1] + "/res", "w").write(f"{noflag} {fails} {irq_sum} {tot_ok}\n")
EOF
read -r noflag fails irq_ns tot_ok <"$W/res"
echo "idle task outside idle over 40 intervals: $((irq_ns / 1000)) us"
check "every answer gives the idle task's time outside idle (IDLE_IRQ; $noflag without)" [ "$noflag" = 0 ]
check "the 40 intervals' rows + idle + irq within 0.5% of ncpu x their time" [ "$tot_ok" = 1 ]
check "every interval's rows + idle + irq within 0.5% of ncpu x interval ($fails outside)" [ "$fails" = 0 ]
check "the interrupts on the idle CPU were measured (irq $irq_ns ns)" [ "$irq_ns" -gt 0 ]
finish test_kmod_idle_irq
