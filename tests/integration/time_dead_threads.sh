#!/usr/bin/env bash
# TIME (cumulative) of a process older than ptop whose threads died before
# ptop started: the kernel's group sums have their time, and every source
# must show it. Compared with ps -o times (whole
# seconds) and /proc/PID/stat (clock ticks); two ptop instances started at
# different moments must agree.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# a process whose second thread burns 1 s of CPU and exits; then it sleeps
python3 -c '
import threading, time, sys
def burn():
    end = time.thread_time() + 1.0
    while time.thread_time() < end:
        pass
t = threading.Thread(target=burn); t.start(); t.join()
print("ready", flush=True)
time.sleep(3600)   # killed by the trap; a loaded machine can take minutes here
' >"${TMPDIR:-/tmp}/ptop_tdt.$$" &
victim=$!
trap 'kill $victim 2>/dev/null; rm -f "${TMPDIR:-/tmp}/ptop_tdt.$$"' EXIT
for _ in $(seq 900); do grep -q ready "${TMPDIR:-/tmp}/ptop_tdt.$$" && break; sleep 0.1; done
grep -q ready "${TMPDIR:-/tmp}/ptop_tdt.$$" || { echo "FAIL: the victim did not start"; exit 1; }
[ "$(ls /proc/$victim/task | wc -l)" = 1 ] || bad "the burning thread is still alive"

hz=$(getconf CLK_TCK)
# the kernel's own group total, in seconds
stat_s() { awk -v hz="$hz" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$victim/stat"; }
# ptop's TIME of the victim, in seconds (M:SS.hh or H:MM:SS)
ptop_s() {
	"$PTOP" -b -n 1 -d 0.2 --source="$1" -p "$victim" -o PID,TIME 2>/dev/null |
		awk -v p="$victim" '$1 == p { n = split($2, a, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + a[i]; print s }'
}
within() { python3 -c "import sys; a,b,d=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= d else 1)" "$@"; }

sources=procfs
[ "$(id -u)" = 0 ] && sources="procfs taskstats"
ps_s=$(ps -o times= -p "$victim" | tr -d ' ')
for src in $sources; do
	k=$(stat_s)
	a=$(ptop_s "$src")
	sleep 0.5
	b=$(ptop_s "$src")
	[ -n "$a" ] && [ -n "$b" ] || { bad "$src: no TIME for $victim"; continue; }
	# one ptop tick of rounding plus what the idle victim may add
	within "$a" "$k" 0.05 && ok "$src: TIME ${a}s, /proc/$victim/stat ${k}s" ||
		bad "$src: TIME ${a}s, the kernel says ${k}s (dead threads missing?)"
	within "$a" "$ps_s" 1 && ok "$src: TIME ${a}s, ps -o times ${ps_s}s" ||
		bad "$src: TIME ${a}s vs ps -o times ${ps_s}s"
	within "$a" "$b" 0.05 && ok "$src: two instances agree (${a}s, ${b}s)" ||
		bad "$src: two instances disagree: ${a}s and ${b}s"
done
[ "$(id -u)" = 0 ] || echo "note: taskstats part skipped (needs root)"
exit $fail
