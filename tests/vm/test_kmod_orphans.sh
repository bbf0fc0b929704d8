#!/bin/bash
# The module's list of reparented children (activity_orphans.c) stays
# bounded while tracking is on and no pass runs: a reader holds
# /proc/taskstats open and never writes (as a monitor stopped with Ctrl-Z
# does), while an unprivileged user loops "fork A; A forks B; A exits"
# (tsload orphans). Each such exit leaves an entry that holds A's
# task_struct until it is drained; the entries of fathers already past
# exit_notify() are freed at later exits, without waiting for a pass, and
# past the module's cap (count and bytes) none is kept (a full walk
# instead). Before the fix the list only shrank at a pass: task_struct
# objects grew by one per loop, without limit. Then, with crosscheck=1,
# incremental answers during the loop must still show each B's new
# parent (B does not run after it, only the orphan marks tell it).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
N=${PTOP_ORPHAN_LOOPS:-600}
nob="setpriv --reuid=65534 --regid=65534 --clear-groups"
shrink_slabs() { local f; for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null; }
tasks() { shrink_slabs; awk '$1 == "task_struct" { print $2 }' /proc/slabinfo; }

# the orphan entries are made only while tracking is on: a reader that
# opens and never writes
exec 3<>/proc/taskstats
check "tracking on with a silent reader" wait_state track_probe attached
cap=$(state track_orphans_max); capb=$(state track_orphan_bytes_max)
echo "cap: ${cap:-none} entries, ${capb:-none} bytes"
check "the state file shows the orphan caps" eval '[ -n "$cap" ] && [ -n "$capb" ]'
capped0=$(state track_orphans_capped)
t0=$(tasks)
$nob tsload orphans "$N" >"$W/loop" 2>&1 &
lp=$!
max=0 maxb=0
while kill -0 $lp 2>/dev/null; do
	o=$(state track_orphans); b=$(state track_orphan_bytes)
	[ "${o:-0}" -gt "$max" ] && max=$o
	[ "${b:-0}" -gt "$maxb" ] && maxb=$b
	sleep 0.3
done
wait $lp
check "the loop ran $N times ($(cat "$W/loop"))" grep -q "done $N" "$W/loop"
t1=$(tasks)
o=$(state track_orphans); capped=$(state track_orphans_capped)
echo "task_struct objects: $t0 before, $t1 after $N loops with no pass;" \
	"orphan entries at most $max ($maxb bytes), ${o:-?} now"
check "task_struct objects bounded: $t0 -> $t1 (at most +256)" \
	[ "$t1" -le $((t0 + 256)) ]
check "orphan entries stayed under the cap ($max <= ${cap:-?})" \
	eval '[ -n "$cap" ] && [ "$max" -le "$cap" ]'
check "orphan bytes stayed under the cap ($maxb <= ${capb:-?})" \
	eval '[ -n "$capb" ] && [ "$maxb" -le "$capb" ]'
check "entries of fathers done are freed without a pass (${o:-?} left)" \
	eval '[ -n "$o" ] && [ "$o" -le 8 ]'
check "none was dropped at the cap ($capped0 -> $capped)" \
	eval '[ -n "$capped" ] && [ "$capped" = "$capped0" ]'
check "a pass after the loop answers" tsquery -t >/dev/null
exec 3>&-

# the marks of the freed entries still tell each B's new parent
rmmod ptop_taskstats && insmod "$KO" crosscheck=1 track_linger=2 ||
	bad "reload with crosscheck=1"
(for i in $(seq 20); do tsload orphans 300 >/dev/null 2>&1; done) &
lp=$!
tsquery -t -X "${PTOP_ORPHAN_XSECS:-8}" -i 0.2 >"$W/x" 2>&1
rc=$?
kill $lp 2>/dev/null; wait $lp 2>/dev/null
grep -E '^(miss|crosscheck)' "$W/x" | tail -8
check "cross-check during the orphan loop: no miss (rc=$rc)" [ "$rc" = 0 ]
rmmod ptop_taskstats && insmod "$KO" || bad "reload without parameters"
check_dmesg "orphans"
rm -rf "$W"
finish test_kmod_orphans
