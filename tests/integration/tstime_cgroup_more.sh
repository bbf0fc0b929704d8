#!/usr/bin/env bash
# tstime's total against the kernel's own counter, as tstime_cgroup.sh
# (tests/helpers/tstime_cg.sh), on the other trees:
#   - threads that burn and exit while their process goes on
#   - a command killed by a signal (its exit status 128 + N)
#   - a command that moves itself out of tstime's cgroup into another one
#     (below the test's, so the test's counter still sees it): tstime's
#     own counter misses what it did there, wait4 does not; tstime must
#     take the larger and say inexact, with its bound
#   - --no-wait with a descendant left running: it goes on in the test's
#     cgroup, tstime's own is removed
set -uo pipefail
. "$(dirname "$0")/lib.sh"

need_root FAIL "to make a cgroup to compare with"
need_bins "$T"
# fewer processes where each costs far more (the VM's emulated CPUs)
S=${TSTIME_CG_SCALE:-10}
tmp=$(mktemp -d)
. tests/helpers/tstime_cg.sh
cg_setup

cg_run threads -- python3 -c '
import threading, time
def burn():
    end = time.thread_time() + 0.1
    while time.thread_time() < end:
        pass
for _ in range(3):
    ts = [threading.Thread(target=burn) for _ in range(2)]
    for t in ts: t.start()
    for t in ts: t.join()
'
cg_check threads exact && ok "threads that exit" || bad "threads that exit"

cg_run killed -- sh -c "for i in \$(seq $((20 * S))); do /bin/true; done; kill -SEGV \$\$"
cg_check killed exact && ok "a command killed by a signal" || bad "killed by a signal"
rc=$(cat "$tmp/killed.rc")
[ "$rc" = $((128 + 11)) ] && ok "its status 139" || bad "killed: status $rc, not 139"

mkdir "$CG/other"
cg_run moved -- sh -c 'for i in $(seq "$2"); do /bin/true; done
	echo $$ > "$1/cgroup.procs"
	for i in $(seq "$3"); do /bin/true; done' sh "$CG/other" $((10 * S)) $((20 * S))
cg_check moved inexact && ok "a command that moved itself to another cgroup" ||
	bad "a command that moved itself"
# a descendant not waited for (--no-wait) goes on in tstime's own cgroup,
# and tstime's is removed all the same
cg_run nowait --no-wait -- sh -c 'sleep 60 & echo $! >"$1"; exit 0' sh "$tmp/sleeper"
sp=$(cat "$tmp/sleeper")
left=$(find "$CG" -mindepth 1 -maxdepth 1 -name 'tstime-*' | wc -l)
grep -qx "0::${CG#$CG_ROOT}" "/proc/$sp/cgroup" && [ "$left" = 0 ] &&
	ok "--no-wait: the sleeper handed back to tstime's cgroup, none left behind" ||
	bad "--no-wait: sleeper in $(tail -1 "/proc/$sp/cgroup"), $left cgroups left: $(cat "$tmp/nowait.err")"
kill "$sp" 2>/dev/null
exit $fail
