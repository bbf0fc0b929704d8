#!/bin/bash
# Readers do not disturb each other (a defect found by attacking
# the module): passes of a
# reader in a child pid namespace, and 1,100 passes of another reader,
# leave a host reader's next "since N" answer incremental (no RESYNC, not
# a full walk); the child-namespace reader sees its own tasks only.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)

start_sleepers 2000 "$W/sl"

# the host reader keeps its file open (tracking stays on) between answers
s=$(tsquery -t | seq_of)
full=$(state track_full_walks)

a=$(unshare -p -f --mount-proc tsquery -t 2>&1)
ns_groups=$(field groups <<<"$a")
check "a reader in a child pid namespace sees its own few tasks (groups=$ns_groups)" \
	[ "${ns_groups:-9999}" -lt 10 ]
for i in 1 2 3; do
	unshare -p -f --mount-proc sh -c 's=$(tsquery -t | sed -n "s/.*seq=\([0-9]*\).*/\1/p"); tsquery -t -s $s' >/dev/null
done
out=$(tsquery -t -L 1100)
echo "another reader: $out"
check "another reader made 1,100 passes ($out)" eval 'grep -q "passes=1100" <<<"$out"'

a=$(tsquery -t -s "$s")
echo "host reader since N: $a"
full2=$(state track_full_walks)
check "host reader's answer since N: no RESYNC ($(field resync <<<"$a"))" [ "$(field resync <<<"$a")" = 0 ]
check "... and incremental ($(field count <<<"$a") records of 4,000+)" [ "$(field count <<<"$a")" -lt 1000 ]
# full walks: only each new reader's first answer (4 in the child
# namespace, 1 of the 1,100-pass reader); the host reader's is not one
check "no full walk but the 5 new readers' first answers ($full -> $full2)" \
	[ $((full2 - full)) -le 5 ]

kill $sl; wait 2>/dev/null
check_idle_state "readers"
check_dmesg "readers"
rm -rf "$W"
finish test_kmod_incremental_readers
