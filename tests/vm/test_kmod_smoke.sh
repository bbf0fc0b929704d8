#!/bin/bash
# The module's everyday path on this kernel, in one short run (the smoke
# subset `make vm-check` runs on every kernel of the matrix, see
# tests/vm/smoke): `ptop -b --source=kmod` and `--source=kmod_nl` for 3
# intervals while a process tree forks, execs and exits continually; every
# interval comes from the module, shows the churning processes and the
# exits of the ones that died in it (whether each is exact is
# test_exact_vs_top.sh's job: on a busy host an emulated vCPU can stall); `ptop --list-sources` says both
# module sources work, `ptop --version` names the kernel the module was
# built for.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
kr=$(uname -r)

out=$(ptop --list-sources 2>&1)
for s in kmod_proc kmod_nl; do
	check "ptop --list-sources: $s ok ($(grep "^$s " <<<"$out" | cut -c1-100))" \
		eval '[ "$(awk -v s=$s "\$1 == s { print \$2 }" <<<"$out")" = ok ]'
done
v=$(ptop --version 2>&1)
check "ptop --version names the module's build kernel $kr ($(tr '\n' ' ' <<<"$v"))" \
	eval 'grep -q "built for kernel $kr " <<<"$v"'

for s in kmod kmod_nl; do
	# churn, 2 s trees one after another, until ptop is done (ptop itself
	# may take seconds to start on a busy host)
	rm -f "$W/stop"
	( while [ ! -e "$W/stop" ]; do ptop_churn 2 >>"$W/churn.$s" 2>&1; done ) &
	ch=$!
	for i in $(seq 100); do pgrep '^ch-' >/dev/null && break; sleep 0.1; done
	ptop -b -n 4 -d 1 -o PID,TOTAL,COMMAND --source=$s >"$W/$s.out" 2>"$W/$s.err"
	rc=$?
	touch "$W/stop"
	wait $ch
	check "ptop -b -n 4 --source=$s exits 0 ($(head -c 200 "$W/$s.err"))" [ $rc = 0 ]
	# one block per interval: header, then rows; the first is since boot
	# the header names the source: kmod_proc for --source=kmod
	awk -v s="$([ $s = kmod ] && echo kmod_proc || echo $s)" '
		/^ptop / { n++; src[n] = ($0 ~ " source " s " ") ? 1 : 0
			   exact[n] = ($0 ~ / exact$/) ? 1 : 0; print > "/dev/stderr"; next }
		n && /^idle / { if (match($0, /exited [0-9]+/))
				  ex[n] = substr($0, RSTART + 7, RLENGTH - 7) + 0; next }
		n && / ch-/ { ch[n]++ }
		END { for (i = 1; i <= n; i++)
			printf "%d %d %d %d %d\n", i, src[i], exact[i], ex[i], ch[i] }' \
		"$W/$s.out" >"$W/$s.iv"
	n=$(wc -l <"$W/$s.iv")
	check "--source=$s: 4 blocks (the first since boot, then 3 intervals): $n" [ "$n" = 4 ]
	# a starved vCPU can leave one interval without churn: the three together
	tch=0 tex=0
	while read -r i src exact ex chs; do
		[ "$i" = 1 ] && continue
		check "--source=$s interval $((i - 1)): header says source $s" [ "$src" = 1 ]
		tch=$((tch + ${chs:-0})) tex=$((tex + ${ex:-0}))
	done <"$W/$s.iv"
	check "--source=$s: churning ch-* rows in the 3 intervals ($tch)" [ "$tch" -gt 0 ]
	check "--source=$s: exits reported in the 3 intervals ($tex)" [ "$tex" -gt 0 ]
done

check_idle_state "smoke"
check_dmesg "smoke"
rm -rf "$W"
finish test_kmod_smoke
