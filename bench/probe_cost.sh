#!/usr/bin/env bash
# What the sched_switch probe costs per context switch and what it saves
# per pass (the module's "since N" pass must cost less than the full
# walks it spares), in the VM with the module:
#   tests/vm/run bench/probe_cost.sh [NTASKS] [ROUNDS]     (10000 20)
# Three measurements, every one repeated ROUNDS times in alternation so that
# drift of the (qemu TCG, shared host) guest falls on every state alike:
#  1. the module's own count (probe_timing=1, the state file's
#     switch_probe_*): ns of the probe's body per switch, a timing's own
#     cost (an empty local_clock() pair) subtracted; under a ping-pong
#     (`perf bench sched pipe` on one CPU: two tasks, every op two
#     switches) and under `perf bench sched messaging` (hundreds of tasks:
#     a mark per new task, not one table slot hit again and again); with
#     tracking off (no reader: the probe only notes each CPU's task) and on
#     (a reader holds /proc/taskstats open: every switched-out task
#     marked). What it leaves out: the tracepoint's call into the module;
#  2. the whole cost, call included: usecs/op of short ping-pong rounds
#     with the module not loaded, loaded with no reader, and with a reader
#     (probe_timing=0); per switch = half the median of the paired
#     differences between states of the same round, with a bootstrap 95%
#     interval;
#  3. the saving: with NTASKS sleeping tasks, the reader's CPU per pass of
#     a full walk and of a "since N" pass (tsquery -t -L; the pass runs in
#     its write()).
# Writes bench/results/probe_cost.md (OUT=... elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
NTASKS=${1:-10000}
ROUNDS=${2:-20}
LOOPS=${LOOPS:-5000}		# ping-pong ops per round
MSG_LOOPS=${MSG_LOOPS:-10}	# perf bench sched messaging -l
KO=${PTOP_VM_KMOD_FILE:?run in the VM: tests/vm/run bench/probe_cost.sh}
out=${OUT:-bench/results/probe_cost.md}
params=/sys/module/ptop_taskstats/parameters
state() { awk -v k="$1" '$1 == k { print $2 }' /proc/ptop_taskstats_state; }
log() { echo "probe_cost: $*" >&2; }

load_module() {
	insmod "$KO" track_linger=0 || { log "insmod failed"; exit 1; }
}
rmmod ptop_taskstats
load_module
sysctl -q -w kernel.threads-max=200000 kernel.pid_max=4194304
tsload sleepers "$NTASKS" >/tmp/sl &
sl=$!
hold=
trap 'kill $sl $hold 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q ready /tmp/sl && break; sleep 0.5; done
grep -q ready /tmp/sl || { log "sleepers not ready"; exit 1; }

pipe_us() {	# usecs/op of one ping-pong run on CPU 0
	taskset -c 0 perf bench sched pipe -l "$LOOPS" 2>/dev/null |
		awk '/usecs\/op/ { print $1 }'
}
messaging() {
	perf bench sched messaging -g 5 -l "$MSG_LOOPS" >/dev/null 2>&1
}
reader_on() {	# a reader: tracking on
	tsquery -H 3600 >/dev/null &
	hold=$!
	for _ in $(seq 100); do [ "$(state track_probe)" = attached ] && return; sleep 0.1; done
	log "tracking did not start with a reader"; exit 1
}
reader_off() {
	kill "$hold"; wait "$hold" 2>/dev/null || true
	hold=
	for _ in $(seq 100); do [ "$(state track_probe)" = detached ] && return; sleep 0.1; done
	log "tracking did not stop (track_linger=0)"; exit 1
}
timed() {	# WORKLOAD: "calls ns clock_ns" of the probe during it
	local c0 n0 c1 n1 k
	c0=$(state switch_probe_calls); n0=$(state switch_probe_ns)
	"$@" >/dev/null
	c1=$(state switch_probe_calls); n1=$(state switch_probe_ns)
	k=$(state switch_probe_clock_ns)
	echo "$((c1 - c0)) $((n1 - n0)) $k"
}

# --- 1. the module's own count --------------------------------------------
raw=/tmp/probe_cost.raw
: >"$raw"
echo 1 >"$params/probe_timing"
for r in $(seq "$ROUNDS"); do
	[ "$(state track_probe)" = detached ] || { log "tracking on with no reader"; exit 1; }
	echo "timed pipe off $(timed pipe_us)" >>"$raw"
	echo "timed msg off $(timed messaging)" >>"$raw"
	reader_on
	echo "timed pipe on $(timed pipe_us)" >>"$raw"
	echo "timed msg on $(timed messaging)" >>"$raw"
	reader_off
	log "timed round $r: $(tail -n 4 "$raw" | awk '{ printf "%s/%s %.0f ns  ", $2, $3, $5 / $4 - $6 }')"
done
echo 0 >"$params/probe_timing"
[ "$(state switch_probe_clock_ns)" = 0 ] || { log "probe_timing=0 did not stop the timing"; exit 1; }

# --- 2. the whole cost: ping-pong, module out / in / with a reader ---------
for r in $(seq "$ROUNDS"); do
	rmmod ptop_taskstats
	echo "pipe none $(pipe_us)" >>"$raw"
	load_module
	echo "pipe off $(pipe_us)" >>"$raw"
	reader_on
	echo "pipe on $(pipe_us)" >>"$raw"
	reader_off
	log "pipe round $r: $(tail -n 3 "$raw" | awk '{ printf "%s %s us/op  ", $2, $3 }')"
done

# --- 3. the saving ---------------------------------------------------------
full=$(tsquery -t -F -L 10)
inc=$(tsquery -t -L 50)
log "full: $full"
log "since N: $inc"
# the switch rate of this guest at rest, for scale
c0=$(awk '/^ctxt/ { print $2 }' /proc/stat); sleep 5
c1=$(awk '/^ctxt/ { print $2 }' /proc/stat)
rest=$(((c1 - c0) / 5))

python3 bench/probe_cost_report.py "$raw" "$NTASKS" "$ROUNDS" "$LOOPS" \
	"$MSG_LOOPS" "$full" "$inc" "$rest" "$out"
