#!/bin/bash
# ptop -b with --source=kmod and --source=kmod_nl shows the same tasks as
# --source=taskstats: every task that lives through all three runs is in
# each output, and nothing else but the runs' own short-lived processes.
. "$(dirname "$0")/kmod_common.sh"
require_module
command -v ptop >/dev/null || { echo "FAIL - build/ptop missing"; exit 1; }
W=$(mktemp -d)

tsload sleepers 50 >"$W/sl" &
sl=$!
for i in $(seq 1 100); do grep -q ready "$W/sl" && break; sleep 0.1; done

pids_of() {	# the PIDs of the last iteration of a ptop -b run
	awk '/^ptop / { n++; delete seen } n == 2 && $1 ~ /^[0-9]+$/ { print $1 }' "$1" | sort -u
}
ps -e -o pid= | tr -d ' ' | sort >"$W/before"
for s in kmod kmod_nl taskstats; do
	t0=$(date +%s%N)
	ptop -b -n 2 -d 0.5 -o PID,COMMAND --source=$s >"$W/$s.out" 2>"$W/$s.err"
	rc=$?
	t1=$(date +%s%N)
	check "ptop -b --source=$s exits 0 ($(head -c 200 "$W/$s.err"))" [ $rc = 0 ]
	pids_of "$W/$s.out" >"$W/$s.pids"
	echo "--source=$s: $(wc -l <"$W/$s.pids") processes, $(( (t1 - t0) / 1000000 )) ms"
done
ps -e -o pid= | tr -d ' ' | sort >"$W/after"
comm -12 "$W/before" "$W/after" >"$W/stable"
for s in kmod kmod_nl taskstats; do
	miss=$(comm -23 "$W/stable" "$W/$s.pids" | tr '\n' ' ')
	check "--source=$s shows every long-lived process (missing: ${miss:-none})" [ -z "$miss" ]
done
for s in kmod kmod_nl; do
	# differences to taskstats: only processes that came or went meanwhile
	d=$(comm -3 "$W/$s.pids" "$W/taskstats.pids" | tr -d '\t' | sort -u |
		comm -12 - "$W/stable" | tr '\n' ' ')
	check "--source=$s and --source=taskstats differ only in short-lived processes (${d:-none})" [ -z "$d" ]
done
n=$(grep -c '^' "$W/stable")
check "the comparison covered the 50 sleepers ($n long-lived processes)" [ "$n" -ge 50 ]

# without the module: a clear error, no fallback when the source is forced
rmmod ptop_taskstats || bad "rmmod"
for s in kmod kmod_nl; do
	out=$(ptop -b -n 1 -o PID --source=$s 2>&1); rc=$?
	check "--source=$s without the module fails (status $rc) saying so: $(head -n1 <<<"$out")" \
		eval '[ $rc != 0 ] && grep -q "module is not loaded" <<<"$out"'
done
insmod "$KO" || bad "insmod"

kill $sl; wait 2>/dev/null
check_idle_state "ptop"
check_dmesg "ptop"
rm -rf "$W"
finish test_kmod_ptop
