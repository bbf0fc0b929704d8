#!/bin/bash
# vm-smp: 2,maxcpus=240
# Many possible CPUs (hotplug slots, as VMs often have): 240 struct
# (256, as the issue asks, needs x2apic: qemu refuses it under TCG.)
# ptop_ts_cpu entries do not fit in the first netlink message of a fresh
# socket; the module spreads them over as many messages as needed, so the
# netlink dump works (it failed with EMSGSIZE above ~75 CPUs), agrees with
# /proc/taskstats, and ptop reads it.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
possible=$(cat /sys/devices/system/cpu/possible)
echo "possible CPUs: $possible, online: $(cat /sys/devices/system/cpu/online)"
check "240 possible CPUs ($possible)" [ "$possible" = 0-239 ]
for t in "" -t; do
	a=$(tsquery -n $t 2>"$W/err"); st=$?
	echo "netlink ${t:-groups}: $a $(cat "$W/err")"
	check "netlink dump ${t:-groups} answers ($st)" [ $st = 0 ]
	check "netlink dump ${t:-groups}: ncpu=240 ($(field ncpu <<<"$a"))" \
		[ "$(field ncpu <<<"$a")" = 240 ]
	check "netlink dump ${t:-groups}: records ($(field count <<<"$a"))" \
		[ "$(field count <<<"$a")" -gt 0 ]
done
f=$(/usr/bin/python3 "$PTOP_REPO/tests/vm/genl_load.py" fresh)
echo "netlink dump on a fresh socket: $f"
check "a fresh socket's dump has every CPU and records ($f)" \
	eval '[[ $f =~ ^cpus=240\ records=[1-9] ]]'
p=$(tsquery -t)
check "/proc answer: ncpu=240 ($(field ncpu <<<"$p"))" [ "$(field ncpu <<<"$p")" = 240 ]
for s in kmod kmod_nl; do
	ptop -b -n 2 -d 0.5 -o PID,COMMAND --source=$s >"$W/out" 2>"$W/err"; st=$?
	check "ptop --source=$s reads it ($st: $(head -c 200 "$W/err"))" \
		[ $st = 0 ]
done
check_idle_state "manycpus"
check_dmesg "manycpus"
rm -rf "$W"
finish test_kmod_manycpus
