#!/usr/bin/env bash
# test_exact_vs_top's workload (a busy loop per vCPU, ptop_churn in a
# cgroup of its own) with answers_rec.py recording raw answers and,
# unless PTOP_DIAG_PTOP=0, ptop -b --format=json beside it:
#   tests/vm/run tests/vm/diag/exits.sh     (PTOP_DIAG_TAG=N, PTOP_DIAG_FLAGS=1
#                                            for thread answers, as ptop reads;
#                                            PTOP_DIAG_PATTERNS=wait,exec: ptop_churn -p)
#   tests/vm/diag/answers_ana.py build/diag/run.N
# How the causes of docs/reliability.md, "The churn's exits across the
# pass instant", were found.
set -uo pipefail
OUT=$PTOP_REPO/build/diag/run.${PTOP_DIAG_TAG:-0}
mkdir -p $OUT; rm -f $OUT/ans.bin
CGROOT=/sys/fs/cgroup
mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
CG=$CGROOT/ptop_churn
rmdir $CG 2>/dev/null; mkdir $CG
ptop_workload spin $(nproc) &
spin=$!
sleep 0.5
python3 $PTOP_REPO/tests/vm/diag/answers_rec.py ${PTOP_DIAG_SECS:-22} 1 $CG $OUT/ans.bin ${PTOP_DIAG_FLAGS:-0} &
rec=$!
while [ ! -s $OUT/ans.bin ]; do sleep 0.1; done
if [ "${PTOP_DIAG_PTOP:-1}" = 1 ]; then
ptop -b -d 1 -n 20 --source=kmod --format=json >$OUT/ptop.json 2>$OUT/ptop.err &
p1=$!
fi
ptop_churn -w 2 -l 4 -c $CG ${PTOP_DIAG_PATTERNS:+-p $PTOP_DIAG_PATTERNS} 12 >$OUT/churn.txt
wait $rec
[ "${PTOP_DIAG_PTOP:-1}" = 1 ] && wait $p1
pkill -P $spin; kill $spin
sleep 0.3
rmdir $CG
cat /proc/ptop_taskstats_state > $OUT/state.txt; dmesg > $OUT/dmesg.txt; echo diag done
