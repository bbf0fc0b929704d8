#!/bin/bash
# Every pass works on every CPU and holds the one pass lock, so a reader
# other than root of the initial pid namespace (a reader_gid member, a
# container's root) gets passes at most every pass_interval_us per uid
# after a burst of pass_burst; its writes beyond that wait their turn.
# Root of the initial namespace never waits. Judged by the module's
# count of passes (answers) against the kernel's CLOCK_BOOTTIME
# (/proc/uptime) around the loop: a loaded host only makes the loop
# slower, never faster. Bad values are refused and change nothing.
. "$(dirname "$0")/kmod_common.sh"
require_module
P=/sys/module/ptop_taskstats/parameters
NOGROUP=$(getent group nogroup | cut -d: -f3)
NOBODY=$(id -u nobody)
W=$(mktemp -d)
chmod 755 "$W"

rmmod ptop_taskstats && insmod "$KO" reader_gid="$NOGROUP" ||
	{ bad "reload with reader_gid=$NOGROUP"; finish test_kmod_throttle; }

# --- parameters
check "the pass_interval_us and pass_burst parameters exist" \
	eval '[ -w $P/pass_interval_us ] && [ -w $P/pass_burst ]'
i0=$(cat $P/pass_interval_us 2>/dev/null); b0=$(cat $P/pass_burst 2>/dev/null)
check "an interval above 1 s is refused" bash -c "! echo 1000001 >$P/pass_interval_us"
check "a burst of 0 is refused" bash -c "! echo 0 >$P/pass_burst"
check "a burst of garbage is refused" bash -c "! echo 4x >$P/pass_burst"
check "refused values change nothing ($i0, $b0)" \
	eval '[ "$(cat $P/pass_interval_us)" = "$i0" ] && [ "$(cat $P/pass_burst)" = "$b0" ]'
check "insmod with a bad interval fails" bash -c \
	"rmmod ptop_taskstats; ! insmod '$KO' pass_interval_us=5000000 2>/dev/null"
rmmod ptop_taskstats 2>/dev/null
insmod "$KO" reader_gid="$NOGROUP" pass_interval_us=200000 pass_burst=4 ||
	bad "reload with pass_interval_us=200000 pass_burst=4"

uptime_s() { awk '{ print $1 }' /proc/uptime; }
# loop TAG N CMD...: CMD (a tsquery -L N) timed by /proc/uptime; sets
# passes (answers taken), secs, waited (pass_throttled) of the run
loop() {
	local tag=$1 n=$2 a0 w0 u0 u1
	shift 2
	a0=$(state answers); w0=$(state pass_throttled); u0=$(uptime_s)
	"$@" >"$W/$tag" 2>&1
	check "$tag: tsquery -L $n ran ($(tail -1 "$W/$tag"))" grep -q "passes=$n" "$W/$tag"
	u1=$(uptime_s)
	passes=$(( $(state answers) - a0 ))
	waited=$(( $(state pass_throttled) - ${w0:-0} ))
	secs=$(awk -v a="$u0" -v b="$u1" 'BEGIN { printf "%.2f", b - a }')
	echo "$tag: $passes passes in $secs s, $waited waited"
}

# at most 4 + 1 per 200 ms in SECS (the uptime's 10 ms steps allowed)
rate_ok() { awk -v p="$passes" -v s="$secs" 'BEGIN { exit !(p <= 4 + 1 + (s + 0.02) / 0.2) }'; }

# --- a reader_gid member: 40 passes back to back
loop member 40 setpriv --reuid="$NOBODY" --regid="$NOGROUP" --clear-groups tsquery -L 40
check "member: at most 4 + 1 per 200 ms ($passes in $secs s)" rate_ok
check "member: its writes waited ($waited)" [ "${waited:-0}" -ge 20 ]

# --- root of the initial namespace never waits
loop root 40 tsquery -L 40
check "root: no write waited ($waited)" [ "$waited" = 0 ]

# --- root of a pid + mount namespace (no user namespace) is limited
loop container 12 unshare -pf --mount-proc tsquery -L 12
check "container root: its writes waited ($waited)" [ "${waited:-0}" -ge 5 ]
check "container root: at most 4 + 1 per 200 ms ($passes in $secs s)" rate_ok

# --- a killed waiter leaves at once, nothing held
echo 1000000 >$P/pass_interval_us
setpriv --reuid="$NOBODY" --regid="$NOGROUP" --clear-groups tsquery -L 100 >"$W/killed" 2>&1 &
k=$!
sleep 2
kill -KILL $k
wait $k 2>/dev/null
check "a killed waiting reader closed its file" wait_state open_files 0 10
echo 10000 >$P/pass_interval_us
check_idle_state "throttle"
check_dmesg "throttle"
rm -rf "$W"
finish test_kmod_throttle
