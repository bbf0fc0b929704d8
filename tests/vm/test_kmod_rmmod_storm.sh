#!/bin/bash
# vm-append: slab_nomerge slub_debug=U,kmalloc-64,kmalloc-96,kmalloc-128,kmalloc-192,kmalloc-cg-192
# vm-tcg: single
# vm-timeout: 1500
# rmmod during a fork storm of multi-threaded processes (a defect
# found by attacking it): the module's dead thread entries (thread_tail.c) hold task
# references, so that ending them at unload never reads a freed
# task_struct (on the debug kernel KASAN reports that read of the module
# before 4a8abf5); the references are all dropped (task_struct objects
# back to the baseline), dmesg stays clean, the module loads again and
# answers every time, and once it is gone its memory is too: its own
# slab caches destroyed without objects left (slab_nomerge: not merged
# into others, where kmem_cache_destroy() would not look), and no kmalloc
# object left that the module allocated: slub_debug=U keeps each kmalloc
# object's allocation stack (debugfs slab/<cache>/alloc_traces) in
# kmalloc-64 to -192, where the module's thread tails (88 bytes), a
# pass's per-CPU array (48 a CPU) and a reader's file state (kmalloc-cg-192)
# are: tracking every kmalloc cache made a round of this test take 7
# minutes under single-threaded TCG at host load 30. The module's frames
# read "[ptop_taskstats]" while it is loaded and stay bare addresses once
# it is gone. (Counting slabs, as this test did, could not
# tell the module from the kernel: kmalloc-96 stayed 3-6 slabs up in 3 of
# ~8 runs, and the allocation stacks showed whose: 9p fids of the files the
# storm looked up, dentries holding them, and the LSM blobs of kworkers
# the load made; none of the module.)
. "$(dirname "$0")/kmod_common.sh"
require_module
# PTOP_STORM_ROUNDS: fewer on a slow (debug) kernel
ROUNDS=${PTOP_STORM_ROUNDS:-5}
M=$(modinfo -F name "$KO")
shrink_slabs() { local f; for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null; }
# (KASAN's quarantine keeps freed objects counted: shrinking drains it)
tasks() { shrink_slabs; awk '$1 == "task_struct" { print $2 }' /proc/slabinfo; }
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
# module_objs: the live kmalloc objects with a frame of the module in
# their allocation stack ("[ptop_taskstats]" loaded, a bare kernel-module
# address once unloaded), as "CACHE COUNT" lines, the stacks after them
module_objs() {
	local f
	shrink_slabs
	for f in /sys/kernel/debug/slab/kmalloc-*/alloc_traces; do
		[ -e "$f" ] || continue
		awk -v c="$(basename "$(dirname "$f")")" -v m="[$M]" '
		function flush() { if (mine) { n += cnt; st = st blk } blk = ""; mine = 0 }
		/^ *[0-9]+ / { flush(); cnt = $1 }
		{ blk = blk $0 "\n"; if (index($0, m) || $0 ~ /(^| )0xffffffff[a-f][0-9a-f]+( |$)/) mine = 1 }
		END { flush(); if (n) printf "%s %d\n%s", c, n, st }' "$f"
	done
}
sum_objs() { awk '/^kmalloc-/ { n += $2 } END { print n + 0 }' "$1"; }
W=$(mktemp -d)
[ -r /sys/kernel/debug/slab/kmalloc-96/alloc_traces ] ||
	{ bad "no allocation stacks (slub_debug=U, debugfs)"; finish test_kmod_rmmod_storm; }
# the baseline without the module (a module unloaded before, if any)
rmmod "$M" || { bad "rmmod before the baseline"; finish test_kmod_rmmod_storm; }
module_objs >"$W/m0"
insmod "$KO" || { bad "insmod after the baseline"; finish test_kmod_rmmod_storm; }
sleep 1
t0=$(tasks)
tails=0
for r in $(seq "$ROUNDS"); do
	ptop_churn -p threads,ign 3 >/dev/null &
	c=$!
	(for i in $(seq 300); do /bin/true & done; wait) &
	f=$!
	sleep 1
	n=$(state thread_tails)
	tails=$((tails + ${n:-0}))
	rmmod ptop_taskstats || { bad "round $r: rmmod failed"; break; }
	insmod "$KO" || { bad "round $r: insmod failed"; break; }
	tsquery -t >/dev/null || bad "round $r: no answer after the reload"
	wait $c $f
done
echo "thread tails live just before the rmmods: $tails"
check "the storm left dead-thread entries at unload ($tails)" [ "$tails" -gt 0 ]
sleep 2
t1=$(tasks)
echo "task_struct objects: $t0 before, $t1 after"
check "task references dropped: task_struct back to the baseline" \
	[ "$t1" -le $((t0 + 24)) ]
check_idle_state "rmmod_storm"

# the module gone: its memory too. First, that the check sees the
# module's objects: an open /proc/taskstats holds one of its kmallocs.
exec 3<>/proc/taskstats
module_objs >"$W/m1"
exec 3>&-
check "the module's kmalloc objects seen while it is loaded ($(sum_objs "$W/m1"))" \
	[ "$(sum_objs "$W/m1")" -gt 0 ]
rmmod "$M" || bad "the last rmmod"
caches=$(awk '$1 ~ /^(ptop_acct|act_ent)$/ { print $1, $2 }' /proc/slabinfo | tr '\n' ' ')
check "the module's slab caches destroyed (${caches:-none left})" [ -z "$caches" ]
# objects freed through RCU after the unload: a few seconds
for i in 1 2 3 4 5; do
	sleep 2
	module_objs >"$W/m2"
	[ "$(sum_objs "$W/m2")" -le "$(sum_objs "$W/m0")" ] && break
done
echo "kmalloc objects from the module's code: $(sum_objs "$W/m0") before the first insmod, $(sum_objs "$W/m2") after the last rmmod"
cat "$W/m2"
check "no kmalloc object of the module left after the last rmmod" \
	[ "$(sum_objs "$W/m2")" -le "$(sum_objs "$W/m0")" ]
insmod "$KO" || bad "insmod at the end"
check_dmesg "rmmod_storm"
rm -rf "$W"
finish test_kmod_rmmod_storm
