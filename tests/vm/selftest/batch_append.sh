#!/bin/bash
# vm-append: ptop_vm_batch_append=1
# vm-smp: 2,maxcpus=3
# VM batch self-test: a test's own guest lines reach the boot of its group
# (tests/vm/run reads them from the script it runs, batch_guest.sh).
grep -qw ptop_vm_batch_append=1 /proc/cmdline ||
	{ echo "FAIL - vm-append not on the kernel command line: $(cat /proc/cmdline)"; exit 1; }
[ "$(cat /sys/devices/system/cpu/possible)" = 0-2 ] ||
	{ echo "FAIL - vm-smp maxcpus=3 not in effect: possible $(cat /sys/devices/system/cpu/possible)"; exit 1; }
echo "selftest batch_append: the group's vm-append and vm-smp are in effect"
exit 0
