#!/bin/bash
# Memory a reader can pin: every /proc/taskstats file keeps its answer
# until it is read, so an unprivileged reader (reader_gid) with thousands
# of files must be bounded: by its memory cgroup (answers are charged to
# it: ENOMEM at memory.max, no OOM kill) and by the module's budgets per
# uid (user_answer_kb) and for all non-root readers (all_answer_kb),
# EBUSY beyond; root is never refused; bad budget values get EINVAL.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
chmod 755 "$W"
PIN=$W/pin_answers.py
cp "$PTOP_REPO/tests/vm/pin_answers.py" "$PIN"
P=/sys/module/ptop_taskstats/parameters
NOGROUP=$(getent group nogroup | cut -d: -f3)
N=3000

rmmod ptop_taskstats && insmod "$KO" reader_gid="$NOGROUP" ||
	{ bad "reload with reader_gid=$NOGROUP"; finish test_kmod_budget; }

CG=/sys/fs/cgroup
mountpoint -q $CG || mount -t cgroup2 none $CG
echo +memory >$CG/cgroup.subtree_control
mkdir -p $CG/ptopbudget

kb() { echo $(( $1 / 1024 )); }
avail_kb() { awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo; }

# pin UID FLAGS TAG: a reader (uid UID, group nogroup) in the test memcg
# pins up to N answers; its report goes to $W/TAG; returns once it holds.
pin() {
	rm -f "$W/release"
	bash -c "ulimit -n $((N + 64)); ulimit -l unlimited; echo \$\$ >$CG/ptopbudget/cgroup.procs
		exec setpriv --reuid=$1 --regid=$NOGROUP --clear-groups \
			/usr/bin/python3 '$PIN' $N $2 '$W/release'" >"$W/$3" 2>&1 &
	local i
	for i in $(seq $((600 * PATIENCE))); do
		grep -q pinned= "$W/$3" && return 0
		kill -0 $! 2>/dev/null || break
		sleep 0.1
	done
	bad "$3: no report: $(cat "$W/$3")"
}
release() { touch "$W/release"; wait; }
report() { sed -n "s/.*$1=\\([^ ]*\\).*/\\1/p" "$W/$2"; }

# --- parameters -------------------------------------------------------------
u0=$(cat $P/user_answer_kb)
check "a budget below 1 MiB is refused" bash -c "! echo 10 >$P/user_answer_kb"
check "a budget above RAM/2 is refused" bash -c "! echo 999999999 >$P/all_answer_kb"
check "refused values change nothing ($u0)" [ "$(cat $P/user_answer_kb)" = "$u0" ]
check "insmod with a bad budget fails" bash -c \
	"rmmod ptop_taskstats; ! insmod '$KO' user_answer_kb=1 2>/dev/null"
rmmod ptop_taskstats 2>/dev/null
# (passes not rate-limited: thousands of files, a write each)
insmod "$KO" reader_gid="$NOGROUP" pass_interval_us=0 || bad "reload with reader_gid=$NOGROUP"

# --- A: the per-uid budget ---------------------------------------------------
echo max >$CG/ptopbudget/memory.max
echo 8192 >$P/user_answer_kb
m0=$(cat $CG/ptopbudget/memory.current)
pin nobody 1 a
held=$(state answer_bytes_nonroot)
m1=$(cat $CG/ptopbudget/memory.current)
echo "A: $(cat "$W/a"); held $(kb "$held") KiB; memcg +$(kb $((m1 - m0))) KiB"
check "A: refused with EBUSY at the per-uid budget" [ "$(report first_error a)" = EBUSY ]
check "A: at most 8 MiB held ($(kb "$held") KiB)" [ "$held" -le $((8192 * 1024)) ]
check "A: more than 4 MiB held before refusing" [ "$held" -gt $((4096 * 1024)) ]
check "A: the answers are charged to the reader's memcg" \
	[ $((m1 - m0)) -ge $((held * 9 / 10)) ]
check "A: refusals counted" [ "$(state answers_refused)" -gt 0 ]
check "A: root is not refused meanwhile" bash -c "tsquery -t >/dev/null"
release
check "A: all memory back" wait_state answer_bytes_nonroot 0

# --- B: all non-root readers together ---------------------------------------
echo 4096 >$P/all_answer_kb
pin nobody 0 b1
pin 65533 0 b2
held=$(state answer_bytes_nonroot)
echo "B: $(cat "$W/b1") / $(cat "$W/b2"); held $(kb "$held") KiB"
check "B: the first uid is refused at the global budget" [ "$(report first_error b1)" = EBUSY ]
check "B: a second uid is refused at once (global budget full)" \
	[ "$(report pinned b2)" -lt 3 ]
check "B: at most 4 MiB held together" [ "$held" -le $((4096 * 1024)) ]
release
check "B: all memory back" wait_state answer_bytes_nonroot 0

# --- C: the memcg bounds it first --------------------------------------------
quarter=$(awk '$1 == "MemTotal:" { print int($2 / 4) }' /proc/meminfo)
echo "$quarter" >$P/all_answer_kb
echo "$quarter" >$P/user_answer_kb
echo 64M >$CG/ptopbudget/memory.max
a0=$(avail_kb)
pin nobody 1 c
held=$(state answer_bytes_nonroot)
a1=$(avail_kb)
echo "C: $(cat "$W/c"); held $(kb "$held") KiB; MemAvailable -$((a0 - a1)) KiB"
check "C: refused with ENOMEM at memory.max" [ "$(report first_error c)" = ENOMEM ]
check "C: more than 16 MiB held before refusing ($(kb "$held") KiB)" \
	[ "$held" -gt $((16 * 1024 * 1024)) ]
check "C: at most 64 MiB held" [ "$held" -le $((64 * 1024 * 1024)) ]
check "C: MemAvailable fell by less than 96 MiB" [ $((a0 - a1)) -lt $((96 * 1024)) ]
check "C: the reader was not OOM-killed" kill -0 "$(pgrep -f pin_answers.py | head -1)"
release
check "C: all memory back" wait_state answer_bytes_nonroot 0
check "C: no OOM kill" bash -c "! dmesg | grep -q 'Memory cgroup out of memory'"

rmdir $CG/ptopbudget
check_idle_state "budget"
check_dmesg "budget"
rm -rf "$W"
finish test_kmod_budget
