#!/bin/bash
# The tables activity tracking allocates at the first reader's open of
# /proc/taskstats (a mark table of 26.6 KB per possible CPU, the index's
# hash of 256 KiB, the drain buffer) are charged to that reader's memory
# cgroup, as its answers are: a reader in a cgroup pays for what its open
# makes the module keep. Before, they were charged to nobody. The open
# is measured from inside the cgroup (memory.current read by the same
# shell right before and after it: a file's own struct file is the rest;
# the cgroup charges pages 64 at a time, so the growth is 0 or 256 KiB
# steps: 0 before, 262144 bytes after the fix).
. "$(dirname "$0")/kmod_common.sh"
require_module
rmmod ptop_taskstats && insmod "$KO" track_linger=0 || bad "reload with track_linger=0"
check "tracking off before the first reader" wait_state track_probe detached
CG=/sys/fs/cgroup
mountpoint -q $CG || mount -t cgroup2 none $CG
echo +memory >$CG/cgroup.subtree_control
mkdir -p $CG/ptoptrack
out=$(bash -c "echo \$\$ >$CG/ptoptrack/cgroup.procs
read m0 <$CG/ptoptrack/memory.current
exec 3<>/proc/taskstats
read m1 <$CG/ptoptrack/memory.current
echo \$((m1 - m0)) \$(awk '\$1 == \"track_probe\" { print \$2 }' $STATE)
exec 3>&-")
read -r delta probe <<<"$out"
echo "memory.current of the reader's cgroup grew by ${delta:-?} bytes at its open (tracking $probe)"
check "the open turned tracking on" [ "$probe" = attached ]
check "the tracking tables are charged to the reader's cgroup (${delta:-?} bytes >= 128 KiB)" \
	[ "${delta:-0}" -ge 131072 ]
check "tracking off again after the reader (track_linger=0)" wait_state track_probe detached
rmdir $CG/ptoptrack 2>/dev/null
rmmod ptop_taskstats && insmod "$KO" || bad "reload without parameters"
check_dmesg "track_charge"
finish test_kmod_track_charge
