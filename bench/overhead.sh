#!/usr/bin/env bash
# Monitor overhead, measured side by side in one run: the CPU time that
# ptop (each source that works here), top and htop spend to refresh every
# DELAY seconds for SECS seconds on a machine with NTASKS sleeping tasks,
# each in its interactive view on a pty (one screenful drawn).
# The monitors run one after the other under the same load; each one's
# CPU time (utime+stime, from /proc/<pid>/stat at the end) is divided by
# top's, so the result is a ratio, not an absolute time.
#
#   bench/overhead.sh [NTASKS] [SECS] [DELAY]     (defaults 5000 10 0.5)
# Writes bench/results/overhead_host.md, or overhead_vm_kmod.md where the
# module is loaded. Needs root for the taskstats source.
set -euo pipefail
cd "$(dirname "$0")/.."
NTASKS=${1:-5000}
SECS=${2:-10}
DELAY=${3:-0.5}
B=${B:-build}
# where the module is loaded (the VM: tests/vm/run bench/overhead.sh ...)
# the results go to their own file
out=bench/results/overhead_host.md
[ -e /proc/taskstats ] && out=bench/results/overhead_vm_kmod.md
mkdir -p bench/results
tck=$(getconf CLK_TCK)

# sleeping tasks: one process holding NTASKS-1 sleeping children is cheap
python3 - "$NTASKS" <<'EOF' &
import os, sys, time, signal
n = int(sys.argv[1])
kids = []
for _ in range(n):
    p = os.fork()
    if p == 0:
        signal.pause()
        os._exit(0)
    kids.append(p)
signal.signal(signal.SIGTERM, lambda *a: ([os.kill(k, 9) for k in kids], os._exit(0)))
while True:
    time.sleep(1)
EOF
load=$!
trap 'kill $load 2>/dev/null' EXIT
# wait until every sleeper exists (forking thousands is slow in a VM)
for _ in $(seq 600); do
	[ "$(pgrep -c -P $load)" -ge "$NTASKS" ] && break
	sleep 0.5
done
echo "sleeping tasks: $(pgrep -c -P $load)"

cpu_of() {	# PID -> "total user sys" CPU seconds so far
	awk -v t="$tck" '{ s = $0; sub(/.*\) /, "", s); split(s, f, " ");
		printf "%.3f/%.3f/%.3f", (f[12] + f[13]) / t, f[12] / t, f[13] / t }' "/proc/$1/stat"
}

measure() {	# COMM COMMAND...: runs COMMAND in a pty for SECS, prints CPU s
	local comm=$1
	shift
	# stdin: open, silent (from /dev/zero every monitor would read an
	# endless stream of NUL keys, and redraw for each)
	local fifo quiet
	fifo=$(mktemp -u) && mkfifo "$fifo"
	sleep $((${SECS%.*} + 60)) >"$fifo" &
	quiet=$!
	script -qfc "exec $*" /dev/null >/dev/null 2>&1 <"$fifo" &
	local wrapper=$!
	local pid=
	for _ in $(seq 50); do
		pid=$(pgrep -n -x "$comm") && break
		sleep 0.1
	done
	[ -n "$pid" ] || { echo "$comm did not start" >&2; kill "$quiet" "$wrapper" 2>/dev/null; rm -f "$fifo"; echo nan; return; }
	sleep "$SECS"
	local c
	c=$(cpu_of "$pid")
	kill "$pid" 2>/dev/null || true
	kill "$wrapper" "$quiet" 2>/dev/null || true
	wait "$wrapper" "$quiet" 2>/dev/null || true
	rm -f "$fifo"
	echo "$c"
}

declare -A res
res[top]=$(measure top top -d "$DELAY")
res[htop]=$(measure htop htop -d "$(python3 -c "print(int($DELAY*10))")")
for src in procfs taskstats kmod; do
	if "$B/ptop" -b -n 1 -d 0.1 --source=$src >/dev/null 2>&1; then
		res[ptop-$src]=$(measure ptop "$B/ptop" --no-config -d "$DELAY" --source=$src)
	fi
done

{
	echo "# Monitor overhead ($(date -u +%Y-%m-%d), $(uname -r), $(nproc) CPUs)"
	echo
	echo "$NTASKS sleeping tasks, refresh every ${DELAY}s for ${SECS}s; CPU time"
	echo "of the monitor process itself, interactive on a pty; ratio = CPU / top's CPU"
	echo "(lower is better). Run with: $0 $NTASKS $SECS $DELAY"
	echo
	echo "| monitor | CPU s | user s | sys s | ratio to top |"
	echo "|---|---|---|---|---|"
	for k in top htop ptop-procfs ptop-taskstats ptop-kmod; do
		[ -n "${res[$k]:-}" ] || continue
		IFS=/ read -r tot usr sys <<<"${res[$k]}"
		IFS=/ read -r ttot _ <<<"${res[top]}"
		echo "| $k | $tot | $usr | $sys | $(python3 -c "print('%.2f' % (float('$tot') / max(float('$ttot'), 0.001)))") |"
	done
} | tee "$out"
