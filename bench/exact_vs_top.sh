#!/usr/bin/env bash
# ptop's headline, as a report: the churn workload watched by ptop (module
# source) and top side by side, in the VM (tests/vm/test_exact_vs_top.sh does
# the measuring and asserting). This script keeps the numbers and draws
# the plot:
#   bench/results/exact_vs_top.md   table (worst / mean deviation)
#   bench/results/exact_vs_top.dat  per-interval accounted % of each tool
#   bench/results/exact_vs_top.png  the plot (gnuplot)
#
#   bench/exact_vs_top.sh [SOURCE]     (default kmod)
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=${1:-kmod}
make -s all build/tests/helpers/ptop_churn build/tests/helpers/ptop_workload
st=0
tests/vm/run tests/vm/test_exact_vs_top.sh "$SRC" || st=$?
mkdir -p bench/results
cp build/bench/exact_vs_top.dat bench/results/exact_vs_top.dat
{
	echo "# Rows + idle against ncpu x 100%: ptop vs top"
	echo
	echo "Debian 6.1 guest kernel, 2 vCPUs (qemu TCG), source $SRC, $(date -u +%Y-%m-%d)."
	echo "Workload: one busy loop per vCPU, plus tests/helpers/ptop_churn"
	echo "(waited children, self-reaped children, double-fork orphans, an"
	echo "8-thread process, a non-leader exec; from ptop's first interval on),"
	echo "$(grep -vc "^#" build/bench/exact_vs_top.dat) intervals of 1 s."
	echo "For ptop: 'accounted' from its headline. For top: the sum of its %CPU"
	echo "column plus (id + wa + st) x ncpu from its %Cpu(s) line."
	echo
	cat build/bench/exact_vs_top.md
	echo
	echo "Per interval: exact_vs_top.dat; plot: exact_vs_top.png."
	[ $st = 0 ] || echo "(the VM test failed its assertions: exit $st)"
} >bench/results/exact_vs_top.md
gnuplot <<'EOF'
set terminal pngcairo size 900,480 font "DejaVu Sans,11"
set output "bench/results/exact_vs_top.png"
set title "CPU time accounted per 1 s interval (2 CPUs = 200%)"
set xlabel "interval"
set ylabel "accounted (% of one CPU)"
set key bottom right
set grid
set yrange [0:*]
plot "bench/results/exact_vs_top.dat" using 1:4 with lines lw 2 dt 2 lc rgb "#888888" title "ncpu x 100%", \
     "" using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "ptop (rows + idle)", \
     "" using 1:3 with linespoints lw 2 pt 5 lc rgb "#d62728" title "top (%CPU sum + idle)"
EOF
cat bench/results/exact_vs_top.md
exit $st
