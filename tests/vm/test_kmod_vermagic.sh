#!/bin/bash
# A module built for another kernel of the matrix (tests/vm/kernels) refuses
# to load on this one, cleanly: insmod fails with "Invalid module format",
# the kernel names the mismatch in dmesg (vermagic or symbol versions),
# nothing is left loaded and no warning is logged.  ptop then runs on the
# stock sources and says why (batch: on stderr), --list-sources marks the
# module's sources unusable, --version says the module is not loaded.
# The foreign modules are the ones tests/vm/run built for the other kernels
# (build/kmod/ and build/vm/<kver>/kmod/); `make vm-check` prepares them.
. "$(dirname "$0")/kmod_common.sh"
require_module
kr=$(uname -r)
name=ptop_taskstats
W_ERR=$(mktemp)
trap 'rm -f "$W_ERR"' EXIT

foreign=()
for ko in "$PTOP_REPO/build/kmod/$name.ko" "$PTOP_REPO"/build/vm/*/kmod/$name.ko; do
	[ -f "$ko" ] || continue
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	[ -n "$vm" ] && [ "$vm" != "$kr" ] && foreign+=("$ko")
done
if [ ${#foreign[@]} = 0 ]; then
	echo "FAIL - no module built for another kernel (tests/vm/run --kernel 5.10 --prepare makes one)"
	exit 1
fi

rmmod $name || bad "rmmod $name (loaded by the harness)"
for ko in "${foreign[@]}"; do
	vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	dmesg -C
	out=$(insmod "$ko" 2>&1); rc=$?
	check "insmod of the module built for $vm fails on $kr (status $rc: $out)" \
		eval '[ $rc != 0 ] && grep -q "Invalid module format" <<<"$out"'
	check "  nothing loaded" eval '! grep -q "^$name " /proc/modules'
	msg=$(dmesg | grep -E "$name: (version magic|disagrees about version|no symbol version)" | head -n1)
	check "  the kernel names the mismatch (${msg:-nothing in dmesg})" [ -n "$msg" ]
	check "  no warning in dmesg" eval '! dmesg | grep -qE "WARNING:|BUG:|Oops|Call Trace"'
done

# ptop without the module: auto falls back quietly; --list-sources says why
out=$(ptop -b -n 2 -d 0.3 -o PID,COMMAND 2>"$W_ERR" ) ; rc=$?
err=$(cat "$W_ERR" 2>/dev/null)
check "ptop -b (auto) still works (status $rc)" [ $rc = 0 ]
src=$(sed -n 's/^ptop .* source \([a-z_]*\) .*/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
check "  on a stock source ($src)" eval '[[ "$src" == "taskstats_nl " || "$src" == "procfs " ]]'
check "  and nothing on stderr ($err)" [ -z "$err" ]
ls=$(ptop --list-sources)
check "--list-sources: the module is not loaded" eval 'grep -q "module is not loaded" <<<"$ls"'
for s in kmod_proc kmod_nl; do
	check "--list-sources: $s unusable ($(grep "^$s " <<<"$ls"))" \
		eval '[ "$(awk -v s=$s "\$1 == s { print \$2 }" <<<"$ls")" = no ]'
done
v=$(ptop --version)
check "ptop --version: module not loaded ($(tr '\n' ' ' <<<"$v"))" eval 'grep -q "module ptop_taskstats: not loaded" <<<"$v"'

# and the right one still loads (the harness unloads it at the end)
insmod "$KO" && ok "insmod of the module built for $kr" || bad "insmod $KO"
v=$(ptop --version)
check "ptop --version names the module's kernel ($(tr '\n' ' ' <<<"$v"))" \
	eval 'grep -q "built for kernel $kr " <<<"$v"'
finish test_kmod_vermagic
