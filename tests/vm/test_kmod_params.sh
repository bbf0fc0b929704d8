#!/bin/bash
# Bounded parameters: the module's numeric parameters are bounded (a value
# out of range makes insmod fail with EINVAL and loads nothing, where
# exit_ring_size=8000000 used to load after a kvmalloc WARNING and other
# values were silently changed); the state file is for root only (it was
# 0444: anyone could watch the machine's forks, exits and readers); and
# zombies present at load get no accounting record (their record was
# never freed: acct_groups grew by one per zombie, for good).
. "$(dirname "$0")/kmod_common.sh"
require_module
nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
W=$(mktemp -d)
kmsg_has() { dmesg | grep -q "$1"; }	# no /dev/fd in the guest

# --- the state file ---------------------------------------------------------
mode=$(stat -c %a "$STATE")
check "state file mode 400 (got $mode)" [ "$mode" = 400 ]
$nob cat "$STATE" >"$W/st" 2>&1
check "nobody cannot read the state file ($(head -c 80 "$W/st"))" \
	grep -q 'Permission denied' "$W/st"
check "root reads it" grep -q '^version ' "$STATE"
v=$($nob ptop --version 2>&1 | tail -n 1)
check "ptop --version as nobody still names the module's version ($v)" \
	grep -q "module ptop_taskstats $(cat /sys/module/ptop_taskstats/version)," <<<"$v"

# --- bounded parameters -----------------------------------------------------
rmmod ptop_taskstats || bad "rmmod"
for p in exit_ring_size=8000000 exit_ring_size=63 exit_ring_size=-1 \
	 exit_ring_size=abc max_records=15 max_records=4194305 \
	 max_records=4294967295 track_linger=3601; do
	dmesg -C
	out=$(insmod "$KO" "$p" 2>&1)
	rc=$?
	check "insmod $p refused (rc=$rc: $out)" [ $rc != 0 ]
	check "insmod $p: nothing loaded" [ ! -e /proc/taskstats ]
	check "insmod $p: the kernel names the parameter" \
		kmsg_has "invalid for parameter .${p%%=*}."
	if kmsg_has 'WARNING:\|Call Trace'; then
		bad "insmod $p: kernel warning"
		dmesg | head -20
	fi
	[ -e /proc/taskstats ] && rmmod ptop_taskstats
done
if insmod "$KO" exit_ring_size=262144 max_records=16 track_linger=0; then
	ok "insmod at the bounds (exit_ring_size=262144 max_records=16 track_linger=0)"
	p=/sys/module/ptop_taskstats/parameters
	check "parameters as given ($(cat $p/exit_ring_size) $(cat $p/max_records) $(cat $p/track_linger))" \
		[ "$(cat $p/exit_ring_size) $(cat $p/max_records) $(cat $p/track_linger)" = "262144 16 0" ]
	check "state says exit_ring_size 262144" [ "$(state exit_ring_size)" = 262144 ]
	tsquery -t >/dev/null || bad "an answer at the bounds"
	rmmod ptop_taskstats || bad "rmmod"
else
	bad "insmod at the bounds"
fi

# --- zombies at load --------------------------------------------------------
NZ=2000
# a parent of NZ zombies, until it is killed (then init reaps them)
start_zombies "$NZ" 600 "$W/z"
nz=$(ps -e -o stat= | grep -c '^Z')
check "$NZ zombies made (got $nz)" [ "$nz" -ge "$NZ" ]
insmod "$KO" || bad "insmod with zombies around"
live() { ps -e -o stat= | grep -vc '^Z'; }
g=$(state acct_groups)
l=$(live)
echo "with $nz zombies: acct_groups $g, live processes $l"
check "zombies got no record (acct_groups $g <= $l live + 100)" [ "$g" -le $((l + 100)) ]
kill "$zp"
wait "$zp" 2>/dev/null
for i in $(seq $((50 * PATIENCE))); do
	[ "$(ps -e -o stat= | grep -c '^Z')" -lt 10 ] && break
	sleep 0.2
done
for i in 1 2 3 4 5; do tsquery >/dev/null; done	# passes reap dead records
g=$(state acct_groups)
l=$(live)
echo "zombies reaped: acct_groups $g, live processes $l"
check "no record left behind (acct_groups $g <= $l live + 100)" [ "$g" -le $((l + 100)) ]
check_idle_state "params"
check_dmesg "params"
rm -rf "$W"
finish test_kmod_params
