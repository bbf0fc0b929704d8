#!/usr/bin/env bash
# test_exact_vs_top's workload and its side by side start (ptop, top, the
# churn at once), ptop dumping its raw answers for answers_ana.py:
# build/diag/raw.N/{ans.bin,ptop.json,churn.txt,dmesg.txt}. Needs a tree
# with balance.patch applied (made against 40a344d: check that out first;
# ptop's PTOP_DIAG_RAW, the module's
# diag_balance, for balance_ana.py):
#   git apply tests/vm/diag/balance.patch; make all
#   PTOP_VM_KMOD_PARAMS=diag_balance=1 PTOP_DIAG_TAG=1 tests/vm/run tests/vm/diag/ptop_raw.sh
#   tests/vm/diag/answers_ana.py build/diag/raw.1    (cgroup columns: 0)
#   tests/vm/diag/balance_ana.py build/diag/raw.1
set -uo pipefail
OUT=$PTOP_REPO/build/diag/raw.${PTOP_DIAG_TAG:-0}
mkdir -p $OUT; rm -f $OUT/ans.bin
CGROOT=/sys/fs/cgroup
mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
CG=$CGROOT/ptop_churn
rmdir $CG 2>/dev/null; mkdir $CG
ptop_workload spin $(nproc) &
spin=$!
sleep 0.5
PTOP_DIAG_RAW=$OUT/ans.bin ptop -b -d 1 -n 20 --source=kmod --format=json >$OUT/ptop.json 2>$OUT/ptop.err &
p1=$!
top -b -d 1 -n 21 -w 512 >$OUT/top.txt 2>&1 &
p2=$!
ptop_churn -w 2 -l 4 -c $CG 12 >$OUT/churn.txt
wait $p1; wait $p2
pkill -P $spin; kill $spin
sleep 0.3
rmdir $CG
cat /proc/ptop_taskstats_state > $OUT/state.txt; dmesg > $OUT/dmesg.txt; echo diag done
