#!/bin/bash
# A group that dies while a "since N" thread answer is being made (its
# GROUP EXIT record written after the pass began, before the pass looks
# at the ring again in add_late_groups()) is owed to that answer as a
# live record; its EXIT record is in the next answer. The module's state
# file names, per pass, that span of ring positions (walk_late_span SEQ
# FROM TO); the next answer's EXIT records are those positions in ring
# order (FROM of the next pass, all of them visible here: one pid
# namespace). So every GROUP EXIT record of the next answer at a position
# below TO must be a live GROUP record of the answer before, unless that
# answer said MORE. Before 2026-12-02 the late records were copied into
# the room sized for the walk (n/8 + 64 records): in an exit storm of
# many-thread processes their THREAD records filled it and the GROUP
# records after them were left out, without MORE (docs/reliability.md,
# "Review of tonight's exit changes").
# Load: two tsload groupstorm loops (children of 200 threads, and of 2,
# that _exit() as soon as their threads run); thread answers back to back
# on one file (tsquery -G, which checks each pair).
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
SECS=${SECS:-40}
sysctl -q -w kernel.threads-max=100000
grep -q '^walk_late_span ' "$STATE" || { bad "the state file has walk_late_span"; finish test_kmod_late_groups; }

tsload groupstorm $((SECS + 5)) 200 >"$W/storm1" &
s1=$!
tsload groupstorm $((SECS + 5)) 2 >"$W/storm2" &
s2=$!
tsquery -G "$SECS" >"$W/late"
rc=$?
wait $s1 $s2
echo "storms: $(cat "$W/storm1") (200 threads), $(cat "$W/storm2") (2 threads)"
cat "$W/late"
pairs=$(sed -n 's/^late pairs=\([0-9]*\).*/\1/p' "$W/late")
owed=$(sed -n 's/^late .* owed=\([0-9]*\).*/\1/p' "$W/late")
check "the check saw at least 20 answer pairs (${pairs:-none}) and 20 late groups (${owed:-none})" \
	[ "${pairs:-0}" -ge 20 -a "${owed:-0}" -ge 20 ]
check "every group that died during a since-N thread answer is in it (or the answer says MORE)" [ $rc = 0 ]
check_dmesg "late groups"
check_idle_state "late groups"
finish test_kmod_late_groups
