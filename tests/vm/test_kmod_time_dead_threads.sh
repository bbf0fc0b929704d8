#!/bin/bash
# TIME (cumulative) on the module sources of a process older than ptop
# whose threads burned CPU and died before ptop started (see
# tests/integration/time_dead_threads.sh does the stock sources): the
# kernel's group sums (signal->utime/stime) have the dead threads' time,
# and `--source=kmod` and `--source=kmod_nl` must show it. Two processes:
# one whose threads died before the module was loaded (rmmod, start,
# insmod: the module never saw those threads), one whose threads died
# with the module loaded but before any ptop ran. Each is compared with
# /proc/PID/stat utime+stime (clock ticks) and `ps -o times` (whole
# seconds); two ptop instances started at different moments must agree.
. "$(dirname "$0")/kmod_common.sh"
require_module
command -v ptop >/dev/null || { echo "FAIL - build/ptop missing"; exit 1; }
W=$(mktemp -d)
vics=

# victim NAME: a process (its pid in $vic) whose 3 extra threads each burn
# 0.3 s of their own CPU and exit; then it sleeps with its main thread only
victim() {
	tsload deadthreads 3 300 >"$W/$1" &
	vic=$!
	vics="$vics $vic"
	wait_ready "$W/$1" $vic 300 || { bad "$1: the victim did not start"; return 1; }
	check "$1: only the main thread is left ($(ls /proc/$vic/task | tr '\n' ' '))" \
		[ "$(ls /proc/$vic/task | wc -l)" = 1 ]
}
trap 'kill $vics 2>/dev/null; rm -rf "$W"' EXIT

# 1: threads dead before the module was loaded
rmmod ptop_taskstats || bad "rmmod before the first victim"
victim before_module
before=$vic
insmod "$KO" || { bad "insmod after the first victim"; finish test_kmod_time_dead_threads; }
# 2: threads dead with the module loaded, before any ptop
victim before_ptop
after=$vic

hz=$(getconf CLK_TCK)
# the kernel's own group total of PID, in seconds (with "task": its main
# thread's alone)
stat_s() {
	awk -v hz="$hz" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' \
		"/proc/$1${2:+/task/$1}/stat"
}
# times_s PID: ps -o times (whole seconds)
times_s() { ps -o times= -p "$1" | tr -d ' '; }
# ptop_s SOURCE PID: ptop's TIME of PID, in seconds (M:SS.hh or H:MM:SS)
ptop_s() {
	ptop -b -n 1 -d 0.2 --source="$1" -p "$2" -o PID,TIME 2>>"$W/ptop.err" |
		awk -v p="$2" '$1 == p { n = split($2, a, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + a[i]; print s }'
}
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; exit !(x <= d && -x <= d) }'; }

for src in kmod kmod_nl; do
	for name in before_module before_ptop; do
		pid=$([ $name = before_module ] && echo $before || echo $after)
		k=$(stat_s $pid)
		m=$(stat_s $pid task)
		t=$(times_s $pid)
		a=$(ptop_s $src $pid)
		sleep 0.5
		b=$(ptop_s $src $pid)
		if [ -z "$a" ] || [ -z "$b" ]; then
			bad "$src $name: no TIME row for $pid ($(tail -n 2 "$W/ptop.err" | tr '\n' ' '))"
			continue
		fi
		# the threads burned 0.9 s: a TIME that lost them is the main
		# thread's alone, near 0
		check "$src $name: /proc/$pid/stat has the dead threads' time (group ${k}s, main thread ${m}s)" \
			awk -v k="$k" -v m="$m" 'BEGIN { exit !(k - m >= 0.8) }'
		# one ptop tick (0.01 s) of rounding plus what the idle victim adds
		check "$src $name: TIME ${a}s, /proc/$pid/stat ${k}s" within "$a" "$k" 0.05
		# ps truncates to whole seconds: TIME in [ps, ps + 1), same slack
		check "$src $name: TIME ${a}s, ps -o times ${t}s" \
			awk -v a="$a" -v t="$t" 'BEGIN { exit !(a >= t - 0.05 && a < t + 1.05) }'
		check "$src $name: two ptop instances agree (${a}s, ${b}s)" within "$a" "$b" 0.05
	done
done

check_idle_state "time_dead_threads"
check_dmesg "time_dead_threads"
finish test_kmod_time_dead_threads
