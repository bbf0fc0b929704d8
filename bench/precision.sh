#!/usr/bin/env bash
# The exactness cases as a report: tests/helpers/precision_cases.sh on this
# machine's kernel (stock sources, each case also under a make -j4 loop,
# and 20 x `ptop -b -n 1`), and, with the module, in the VM
# (tests/vm/test_precision_kmod.sh). Writes bench/results/precision.md:
# per case and source, intervals, share inexact (and why), worst |off|,
# worst |off| of an interval that said exact, widest snapshot window.
# The module's rows are a section of their own, between two marker lines.
#
#   [N=8] [R=20] [VM_LOG=file] bench/precision.sh [--no-vm|--vm-only]   (as root)
# VM_LOG: take the module's rows from that log of an earlier VM run.
# --no-vm: the stock cases only; the module's section is kept as it was.
# --vm-only: the module's cases only (or VM_LOG's); only their section is
# rewritten, the rest of the file is kept.
set -uo pipefail
cd "$(dirname "$0")/.."
make -s all build/tests/helpers/ptop_sleepers build/tests/helpers/ptop_workload build/tests/helpers/ptop_churn build/tests/helpers/ptop_timers build/bench/exit_path_cost
out_md=bench/results/precision.md
mod_begin='<!-- module rows: bench/precision.sh writes from here -->'
mod_end='<!-- module rows: to here -->'
raw=$(mktemp)
st=0
N=${N:-8} R=${R:-20}
mode=${1:-}
# the host's 1-minute load, every 30 s while the VM runs (a busy host
# stops the emulated vCPUs: the load belongs with the module's rows)
load_log=$(mktemp)
sample_load() { while :; do cut -d' ' -f1 /proc/loadavg >>"$load_log"; sleep 30; done; }
# the module's cases in the VM, meanwhile (it shares the host's 2 CPUs:
# the stock cases below run with it as more background load)
vm_log=
vm_commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo +changes)
if [ -n "${VM_LOG:-}" ]; then
	vm_log=$VM_LOG
elif [ "$mode" != --no-vm ]; then
	vm_log=$(mktemp)
	vm_start=$(date -u '+%Y-%m-%d %H:%M')
	sample_load &
	load_pid=$!
	tests/vm/run tests/vm/test_precision_kmod.sh >"$vm_log" 2>&1 &
	vm_pid=$!
fi

# module_section: the module's rows, from $vm_log, between the markers
module_section() {
	echo "$mod_begin"
	echo "## The module's cases, in the VM"
	echo
	if [ -n "${vm_start:-}" ]; then
		echo "\`tests/vm/test_precision_kmod.sh\` in the Debian 6.1 guest (qemu TCG, 2 vCPUs,"
		echo "module source), $vm_start-$(date -u +%H:%M) UTC, at $vm_commit; host load"
		echo "$(sort -n "$load_log" | sed -n '1p;$p' | paste -sd- -) (1-minute average, every 30 s of the run: other"
		echo "engineers' VMs and builds on the same 2 CPUs)."
	else
		echo "From an earlier VM run's log (\`VM_LOG\`), written $(date -u +%Y-%m-%d)."
	fi
	echo "6 intervals of \`-d 1\` per case; +make: a \`make -j4\` loop of lib/ inside"
	echo "the guest. The module's tolerance is 0.5%; a FAIL line below would be a"
	echo "false \`exact\`. Under TCG a host busy with other work stops the vCPUs,"
	echo "and the guest has no steal clock to see it: such an interval reads"
	echo "short and says \`inexact: off\`."
	echo
	echo "| case | source | intervals | inexact | why (intervals) | worst off % | worst off % when exact | widest snapshot ms |"
	echo "|---|---|---|---|---|---|---|---|"
	grep '^RESULT ' "$vm_log" | while read -r _ c s n i w we sn why; do
		echo "| $c | $s | $n | $i | ${why//,/, } | $w | $we | $sn |"
	done
	grep '^FAIL' "$vm_log" | sed 's/^/    /'
	echo "$mod_end"
}
# the module's section of the file as it is ("" if none)
old_section() { [ -f "$out_md" ] && sed -n "\|^$mod_begin\$|,\|^$mod_end\$|p" "$out_md"; }

if [ "$mode" = --vm-only ]; then
	[ -n "$vm_log" ] || exit 2
	if [ -n "${vm_pid:-}" ]; then
		wait "$vm_pid" || st=1
		kill "$load_pid" 2>/dev/null
		cat "$vm_log"
	fi
	grep -q '^RESULT ' "$vm_log" || { echo "no module rows in $vm_log" >&2; exit 1; }
	new=$(mktemp)
	module_section >"$new"
	if [ -n "$(old_section)" ]; then
		# the old section out, the new one in its place
		awk -v b="$mod_begin" -v e="$mod_end" -v f="$new" '
			$0 == b { while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == e { skip = 0; next }
			!skip' "$out_md" >"$out_md.new" && mv "$out_md.new" "$out_md"
	else
		{ echo; cat "$new"; } >>"$out_md"
	fi
	rm -f "$new" "$raw" "$load_log"
	exit $st
fi
# what the stock kernel's exit record misses per exit (docs/precision.md, ptop(1))
epc0=$(build/bench/exit_path_cost -n 1000) || st=1
epc64=$(build/bench/exit_path_cost -n 100 -m 64) || st=1
echo "$epc0"; echo "$epc64"
# every case as it is and under a make -j4 loop; R x ptop -b -n 1
bash tests/helpers/precision_cases.sh -n "$N" -m -1 "$R" sleepers2000 sleepers10000 steady5000 churn \
	timers5000 pool1000 threads2000 | tee "$raw" || st=1
if [ -n "${vm_pid:-}" ]; then
	wait "$vm_pid" || st=1
	kill "$load_pid" 2>/dev/null
	cat "$vm_log"
fi
# the module's section: this run's or VM_LOG's, else the file's old one
keep=$(mktemp)
if [ -n "$vm_log" ]; then module_section >"$keep"; else old_section >"$keep"; fi
mkdir -p bench/results
{
	echo "# Exact under load: what each interval claims, and whether it holds"
	echo
	echo "$(uname -r) (this machine, 2 CPUs, stock sources) and the Debian 6.1"
	echo "guest (qemu TCG, 2 vCPUs, module source), $(date -u +%Y-%m-%d);"
	echo "other work was running on the machine meanwhile (load $(cut -d' ' -f1-3 /proc/loadavg)),"
	echo "the VM among it (the stock cases run while the VM runs the module's)."
	echo "$N intervals of \`-d 1\` per case (the n1x rows: $R runs of \`ptop -b -n 1\`, 5,000"
	echo "sleepers and 2 busy loops running)."
	echo "Cases (tests/helpers/precision_cases.sh): sleepers2000/10000: that many"
	echo "sleeping processes started and killed during the run; steady5000:"
	echo "5,000 sleepers and 2 busy loops; churn: 2 busy loops and self-reaping"
	echo "children + double-fork orphans; timers5000: 5,000 processes waiting"
	echo "with a timer each (nanosleep, epoll_wait, poll, timed futex, timerfd);"
	echo "pool1000: a thread-pool service (4 processes, 1,000 threads waking"
	echo "every 10 ms to 2 s for 1 ms of work); threads2000: one process of"
	echo "2,000 timer threads, ptop --threads; +make: the same with a \`make -j4\`"
	echo "loop of C code. The module's rows (in the VM) are in their own section"
	echo "below. Every interval that said \`exact\` was checked against 1% of the"
	echo "capacity (0.5% with the module) and its source's bound, every"
	echo "\`within\` (procfs' ticks: counted as within:N among the reasons)"
	echo "against its bound; a FAIL line below would be a false claim."
	echo
	echo "| case | source | intervals | inexact | why (intervals) | worst off % | worst off % when exact | widest snapshot ms |"
	echo "|---|---|---|---|---|---|---|---|"
	grep '^RESULT ' "$raw" | while read -r _ c s n i w we sn why; do
		echo "| $c | $s | $n | $i | ${why//,/, } | $w | $we | $sn |"
	done
	echo
	grep '^FAIL' "$raw" | sed 's/^/    /'
	echo
	echo "off: rows + idle (+ kept-apart parts) minus ncpu x 100%, in % of one CPU."
	echo "exit paths: on the stock kernel a dying task's taskstats record comes"
	echo "before the rest of its exit path, which no row can get: ptop shows it as"
	echo "a part of its own, and an interval where it exceeds the tolerance is"
	echo "inexact for that reason (with the module it is in the rows)."
	echo
	echo "## What the stock kernel's exit record misses, per exit"
	echo
	echo "\`build/bench/exit_path_cost -n 1000\` and \`-n 100 -m 64\` (as root): children"
	echo "one after another, each the wait4() rusage of its whole life minus the"
	echo "runtime in its taskstats exit record (the exit path after the record:"
	echo "exit_mm, files, notifying the parent, the last schedule):"
	echo
	echo "| process | exits | median | mean | 90th percentile |"
	echo "|---|---|---|---|---|"
	for l in "$epc0" "$epc64"; do
		set -- $l
		mb=${2#mb=} m=${4#matched=} med=${6#median_us=} mean=${7#mean_us=} p90=${8#p90_us=}
		echo "| touched ${mb} MiB | $m | ${med} us | ${mean} us | ${p90} us |"
	done
	echo
	echo "ptop shows this time on the stock kernel as the interval's \`exit paths\`"
	echo "part; the module counts it into the rows (it adds a dying task's"
	echo "exit-path tail when the task is freed)."
	if [ -s "$keep" ]; then echo; cat "$keep"; fi
} >"$out_md"
rm -f "$raw" "$keep" "$load_log"
exit $st
