#!/bin/bash
# RCU held briefly: a pass walks the reader's tasks under
# rcu_read_lock(), which holds off every grace period on the machine
# (and, without PREEMPT_RCU, preemption): the walk is cut into sections
# of at most 256 tasks (pids, threads of a group, threads summed for a
# group's record), with a resched point between them, resuming where it
# stopped. Before, one group was one section however many threads it had
# (its thread records, then its total under siglock), and the first
# count of the tasks one more over every process.
#
# The module times its RCU sections (walk_rcu_max_ns, the longest of the
# last pass, and walk_last_ns, the whole walk, in the state file). With
# 30,000 threads in one process, the longest section of a full thread
# answer must be a small part of the walk (median over 5 passes, at most
# 1/10: 256 tasks a section is 1/117; one section for the group is
# nearly 1/1). A ratio, so that a loaded host does not decide it. The
# answer must also hold every thread exactly once.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
NT=${NT:-30000}

start_threads "$NT" "$W/th"
: >"$W/r"
for i in 1 2 3 4 5; do
	tsquery -t -r >"$W/a$i" || bad "pass $i: tsquery failed"
	echo "$(state walk_rcu_max_ns) $(state walk_last_ns)" >>"$W/r"
done
cat "$W/r" | awk '{ printf "pass: longest RCU section %d us of a %d us walk\n", $1 / 1000, $2 / 1000 }'
ratio=$(awk '{ print ($2 ? $1 / $2 : 1) }' "$W/r" | sort -g | sed -n 3p)
check "longest RCU section at most 1/10 of the walk (median $ratio)" \
	awk -v r="$ratio" 'BEGIN { exit !(r != "" && r <= 0.1) }'
# every thread of tsload once (its threads: NT + the main one)
n=$(awk -v p="$th" '$1 == "rec" && $2 == "T" && $4 == p' "$W/a5" | wc -l)
u=$(awk -v p="$th" '$1 == "rec" && $2 == "T" && $4 == p { print $3 }' "$W/a5" | sort -u | wc -l)
check "the answer holds tsload's $((NT + 1)) threads ($n records, $u distinct)" \
	[ "$n" = $((NT + 1)) -a "$u" = "$n" ]
kill "$th"
wait "$th" 2>/dev/null
check_idle_state "walk_rcu"
check_dmesg "walk_rcu"
rm -rf "$W"
finish test_kmod_walk_rcu
