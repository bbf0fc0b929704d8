#!/usr/bin/env bash
# No refresh reads a file whose generation walks something global in the
# kernel (lib/src/procfs_read.h): beside 3,000 tasks that each hold an
# hrtimer (tests/helpers/ptop_timers: nanosleep, epoll_wait, poll, timed
# futex, timerfd), every file ptop opens under /proc and /sys in
# `ptop -b -n 2 -d 0.2` (each stock source) is traced (strace -f -y; with
# --seccomp-bpf where strace has it, 2-3 times faster) and must be one of the per-task files, /proc/stat,
# cpuidle's counters or a file read once at open; /proc/timer_list (whose
# generation is quadratic in those timers, with interrupts off) above all.
# No time is asserted. A new file a source reads belongs in ALLOWED below
# only with its cost written in lib/src/procfs_read.h.
# Exit 77 (skip) without root (timer_list is root's only) or strace.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
N=${N:-3000}

need_root SKIP "timer_list is root's only"
command -v strace >/dev/null || { echo "SKIP: no strace"; exit 77; }
for t in ptop tests/helpers/ptop_timers; do
	[ -x "$B/$t" ] || make -s B="$B" "$B/$t" >/dev/null ||
		{ echo "FAIL: cannot build $B/$t"; exit 1; }
done

tmp=$(mktemp -d)
tpid=
cleanup() {
	[ -n "$tpid" ] && kill "$tpid" 2>/dev/null && wait "$tpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# What a refresh may open under /proc and /sys (digits are N); at open
# too: config.gz, online CPUs, the delay accounting switch, the module's;
# the text output's summary: meminfo, loadavg, uptime (lib/sysinfo.h).
ALLOWED='^/proc(/N(/task(/N)?)?)?$
^/proc/(meminfo|loadavg|uptime)$
^/proc/N(/task/N)?/(stat|status|schedstat)$
^/proc/self/schedstat$
^/proc/stat$
^/proc/config\.gz$
^/proc/sys/kernel/task_delayacct$
^/proc/taskstats$
^/proc/ptop_taskstats_state$
^/sys/devices/system/cpu(/online)?$
^/sys/devices/system/cpu/cpuN/cpuidle(/stateN/time)?$
^/sys/module/ptop_taskstats(/.*)?$'

"$B/tests/helpers/ptop_timers" "$N" >"$tmp/timers" &
tpid=$!
for _ in $(seq 1 240); do
	grep -q '^started' "$tmp/timers" && break
	kill -0 "$tpid" 2>/dev/null || break
	sleep 0.25
done
grep -q "^started $N\$" "$tmp/timers" ||
	{ echo "FAIL: ptop_timers $N did not start: $(cat "$tmp/timers")"; exit 1; }

# every path opened: the new fd's path, or (failed) the dir's path + name
paths() {
	awk '
	/open(at2?)?\(/ {
		if (match($0, /\) = [0-9]+<[^>]*>$/)) {
			s = substr($0, RSTART, RLENGTH)
			sub(/^\) = [0-9]+</, "", s); sub(/>$/, "", s)
			print s; next
		}
		if (!match($0, /"[^"]*"/)) next
		name = substr($0, RSTART + 1, RLENGTH - 2)
		dir = ""
		if (substr(name, 1, 1) != "/" && match($0, /\([0-9]+<[^>]*>/)) {
			dir = substr($0, RSTART + 1, RLENGTH - 2)
			sub(/^[0-9]+</, "", dir); sub(/>$/, "", dir)
			dir = dir "/"
		}
		print dir name
	}' "$1"
}

bpf=()
strace --seccomp-bpf -f -qq -o /dev/null -e trace=openat true 2>/dev/null &&
	bpf=(--seccomp-bpf)
for src in taskstats procfs; do
	strace "${bpf[@]}" -f -qq -y -e trace=open,openat,openat2 \
		-o "$tmp/trace.$src" "$B/ptop" -b -n 2 -d 0.2 --source="$src" \
		>"$tmp/out.$src" 2>&1
	rc=$?
	if [ $rc != 0 ] || [ "$(grep -c '^ptop .* accounted ' "$tmp/out.$src")" != 2 ]; then
		echo "FAIL: $src: rc $rc, not 2 intervals: $(head -3 "$tmp/out.$src")"
		fail=1
		continue
	fi
	paths "$tmp/trace.$src" | grep -E '^/(proc|sys)(/|$)' |
		sed -E 's#/[0-9]+(/|$)#/N\1#g; s#/(cpu|state)[0-9]+#/\1N#g' |
		sort -u >"$tmp/opened.$src"
	[ -s "$tmp/opened.$src" ] ||
		{ echo "FAIL: $src: no /proc file traced"; fail=1; continue; }
	if grep -q 'timer_list' "$tmp/trace.$src"; then
		echo "FAIL: $src opened /proc/timer_list beside $N timers"
		fail=1
	fi
	bad=$(grep -v -E -f <(printf '%s\n' "$ALLOWED") "$tmp/opened.$src")
	if [ -n "$bad" ]; then
		echo "FAIL: $src opened files outside the cheap set:"
		sed 's/^/  /' <<<"$bad"
		fail=1
	else
		echo "ok: $src: $(wc -l <"$tmp/opened.$src") kinds of /proc and /sys files, all cheap; no timer_list"
	fi
done

[ $fail = 0 ] && echo "PASS: cheap_reads" || echo "FAIL: cheap_reads"
exit $fail
