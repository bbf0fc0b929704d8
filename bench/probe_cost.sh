#!/usr/bin/env bash
# What the activity probe costs and what it saves (issue 10, point 1), in
# the VM with the module: tests/vm/run bench/probe_cost.sh [NTASKS] [ROUNDS]
#  - cost: `perf bench sched pipe` (two tasks ping-pong through pipes on
#    one CPU: every op is two context switches) without a reader (probe
#    detached) and with one (a /proc/taskstats file held open: probe
#    attached), ROUNDS alternating rounds; per switch = half the
#    difference of the mean usecs/op;
#  - saving: with NTASKS sleeping tasks, the module's CPU per pass of a
#    full walk and of a "since N" pass (tsquery -L).
# Writes bench/results/probe_cost.md.
set -euo pipefail
cd "$(dirname "$0")/.."
NTASKS=${1:-10000}
ROUNDS=${2:-5}
LOOPS=${LOOPS:-50000}
KO=${PTOP_VM_KMOD_FILE:?run in the VM: tests/vm/run bench/probe_cost.sh}
out=bench/results/probe_cost.md
state() { awk -v k="$1" '$1 == k { print $2 }' /proc/ptop_taskstats_state; }

rmmod ptop_taskstats && insmod "$KO" track_linger=0
sysctl -q -w kernel.threads-max=200000 kernel.pid_max=4194304
tsload sleepers "$NTASKS" >/tmp/sl &
sl=$!
trap 'kill $sl 2>/dev/null' EXIT
for _ in $(seq 600); do grep -q ready /tmp/sl && break; sleep 0.5; done

pipe_us() {	# mean usecs/op of one perf bench sched pipe run on CPU 0
	taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }'
}
off=() on=()
for r in $(seq "$ROUNDS"); do
	[ "$(state track_probe)" = detached ] || { echo "probe attached with no reader" >&2; exit 1; }
	off+=("$(pipe_us)")
	tsquery -H 600 >/dev/null &
	h=$!
	for _ in $(seq 50); do [ "$(state track_probe)" = attached ] && break; sleep 0.1; done
	on+=("$(pipe_us)")
	kill $h; wait $h 2>/dev/null || true
	for _ in $(seq 50); do [ "$(state track_probe)" = detached ] && break; sleep 0.1; done
	echo "round $r: detached ${off[-1]} us/op, attached ${on[-1]} us/op"
done
full=$(tsquery -t -F -L 10)
inc=$(tsquery -t -L 50)
echo "full: $full"
echo "since N: $inc"
python3 - "$NTASKS" "${off[*]}" "${on[*]}" "$full" "$inc" "$out" "$LOOPS" <<'PY'
import sys, statistics as st, re, datetime, os
n, off, on, full, inc, out, loops = sys.argv[1:]
off = [float(x) for x in off.split()]
on = [float(x) for x in on.split()]
f = dict(re.findall(r'(\w+)=([\d.]+)', full))
i = dict(re.findall(r'(\w+)=([\d.]+)', inc))
d_us = (st.mean(on) - st.mean(off)) / 2          # per context switch
saved_ms = float(f['cpu_ms']) - float(i['cpu_ms'])  # per pass
be = saved_ms * 1e3 / d_us if d_us > 0 else float('inf')
with open(out, 'w') as o:
    o.write(f"""# Activity probe: cost per context switch, saving per pass

{datetime.date.today()}, {os.uname().release}, {os.cpu_count()} CPUs (qemu TCG
guest, module loaded), {n} sleeping tasks. Run with:
`tests/vm/run bench/probe_cost.sh {n} {len(off)}` (LOOPS={loops}).

Cost: `perf bench sched pipe -l {loops}` on one CPU (each op = 2 context
switches), rounds alternating without a reader (sched_switch probe
detached) and with one (/proc/taskstats held open: attached).

| | usecs/op, each round | mean |
|---|---|---|
| probe detached | {' '.join('%.3f' % x for x in off)} | {st.mean(off):.3f} |
| probe attached | {' '.join('%.3f' % x for x in on)} | {st.mean(on):.3f} |

Probe cost per context switch: **{d_us*1000:.0f} ns** (half the difference
of the means; the spread between rounds of one kind is
{(max(off)-min(off))/2*1000:.0f} ns detached, {(max(on)-min(on))/2*1000:.0f} ns attached).

Saving: the module's CPU per pass (`tsquery -t -L`, user+sys of the
reader: the pass runs in its write()):

| pass | CPU ms/pass | wall ms/pass | records |
|---|---|---|---|
| full walk (-F) | {f['cpu_ms']} | {f['wall_ms']} | {f['records']} |
| since N | {i['cpu_ms']} | {i['wall_ms']} | {i['records']} |

A "since N" pass saves {saved_ms:.2f} ms of CPU; the probe costs that
much at {be:,.0f} context switches between two passes (per second at a
1 s refresh; this guest's own rate at rest is a few hundred per second).
""")
print(open(out).read())
PY
