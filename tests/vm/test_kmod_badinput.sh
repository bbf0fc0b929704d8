#!/bin/bash
# Bad input over both transports: each gets a clean -EINVAL / -EACCES /
# -EPERM / -EFAULT, and the module keeps working.
. "$(dirname "$0")/kmod_common.sh"
require_module

expect() {	# MODE EXPECTED
	local out
	out=$(tsquery -b "$1" 2>&1)
	check "$1 -> $2 ($out)" [ "$out" = "$1 ret=$2" ]
}
expect short EINVAL		# write shorter than struct ptop_ts_cmd
expect long EINVAL		# longer
expect zero EINVAL		# empty write, then read without a command
expect cmd EINVAL		# unknown command
expect flags EINVAL		# unknown flag bits
expect pid EINVAL		# start_pid "negative" (0xffffffff)
expect pidbig EINVAL		# start_pid > PID_MAX_LIMIT
expect hugemax OK		# max_count 0xffffffff: clamped, not an error
expect noread EINVAL		# read without write
expect faultw EFAULT		# command from an unmapped address
expect faultr EFAULT		# answer to an unmapped address
expect since RESYNC		# since_seq the module never issued
expect nl_flags EINVAL		# netlink: unknown flag bits

out=$(tsquery -b garbage8 2>&1)
check "8 threads writing garbage at once: only EINVAL ($out)" [ "$out" = "garbage8 ret=OK unexpected=0" ]

# huge max_count is clamped: a full answer still comes back whole
check "max_count 0xffffffff answers" tsquery -t -m 4294967295
# paging: max_count 10 -> MORE + next_pid; the pages hold every group that
# lived through the whole paging (in full answers before and after), once
T=$(mktemp -d)
tsquery -r | awk '$1 == "rec" { print $3 }' | sort >"$T/before"
start=0 n=0
while :; do
	a=$(tsquery -m 10 -p "$start" -r)
	awk '$1 == "rec" { print $3 }' <<<"$a" >>"$T/pages"
	n=$((n + 1))
	[ "$(field more <<<"$a")" = 1 ] || break
	start=$(field next_pid <<<"$a")
	[ $n -lt 1000 ] || break
done
tsquery -r | awk '$1 == "rec" { print $3 }' | sort >"$T/after"
comm -12 "$T/before" "$T/after" >"$T/stable"
sort "$T/pages" >"$T/paged"
lost=$(comm -23 "$T/stable" "$T/paged" | wc -l)
dups=$(uniq -d "$T/paged" | wc -l)
echo "paging by 10: $n pages, $(wc -l <"$T/paged") groups; $(wc -l <"$T/stable") groups lived throughout, $lost of them not in the pages, $dups duplicates"
check "pages of 10 records hold every long-lived group once" \
	eval '[ "$lost" = 0 ] && [ "$dups" = 0 ] && [ "$n" -ge 5 ]'
rm -rf "$T"

# unprivileged readers
nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
out=$($nob tsquery 2>&1)
check "nobody on /proc/taskstats -> EACCES ($out)" [ "$out" = "tsquery: EACCES" ]
out=$($nob tsquery -n 2>&1)
check "nobody on genetlink -> EPERM ($out)" [ "$out" = "tsquery: EPERM" ]
out=$($nob tsquery -b garbage8 2>&1)
check "nobody: none of 8 garbage threads can even open ($out)" [ "$out" = "garbage8 ret=BAD unexpected=-8" ]

# reader_gid lets one group in: mode 0660 root:<gid>
rmmod ptop_taskstats && insmod "$KO" reader_gid=65534 || bad "reload with reader_gid"
m=$(stat -c '%a %U %g' /proc/taskstats)
check "reader_gid=65534: /proc/taskstats is 660 root 65534 ($m)" [ "$m" = "660 root 65534" ]
check "nobody in group 65534 can query" $nob tsquery
out=$(setpriv --reuid=65534 --regid=1 --clear-groups tsquery 2>&1)
check "a user outside the group still gets EACCES ($out)" [ "$out" = "tsquery: EACCES" ]
rmmod ptop_taskstats && insmod "$KO" || bad "reload with defaults"
m=$(stat -c '%a %U %G' /proc/taskstats)
check "default: /proc/taskstats is 600 root root ($m)" [ "$m" = "600 root root" ]

# pid namespaces: a reader in a new one sees only its own tasks, numbered
# as it sees them (pid 1 = itself), over both transports
for t in "" "-n"; do
	out=$(unshare --pid --fork --mount-proc tsquery $t -r 2>&1)
	pids=$(awk '$1 == "rec" && $2 == "G" { print $3 }' <<<"$out" | tr '\n' ' ')
	check "new pid namespace ${t:-/proc}: only pid 1 (itself) is reported (got: $pids)" [ "$pids" = "1 " ]
done

check "the module still answers over /proc" tsquery -t
check "the module still answers over netlink" tsquery -n -t
check_idle_state "bad input"
check_dmesg "bad input"
finish test_kmod_badinput
