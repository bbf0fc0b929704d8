#!/bin/bash
# Self-test of the VM harness, run inside the guest by tests/vm/run (make
# vm-check): are we really on the Debian guest kernel, with the host userland,
# root, 2 CPUs, a writable build dir, and the module loaded when it exists?
# vm-append: ptop_vm_append_check=1
set -u
fail=0
ok()  { echo "ok   - $*"; }
bad() { echo "FAIL - $*"; fail=1; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

[ "${PTOP_VM:-}" = 1 ] && ok "PTOP_VM=1" || { bad "PTOP_VM=1 (not run through tests/vm/run?)"; exit 1; }

# the kernel is the Debian one matching linux-headers-amd64, not the host's
want=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	grep -o 'linux-headers-[0-9][^ ,()]*' | head -n1)
want=${want#linux-headers-}
kr=$(uname -r)
if [ "${PTOP_VM_KROLE:-default}" = default ]; then
	check "uname -r ($kr) = linux-headers-amd64's version ($want)" [ -n "$want" ] && [ "$kr" = "$want" ]
else	# a kernel of the matrix (tests/vm/run --kernel): not the host's
	check "uname -r ($kr) is the ${PTOP_VM_KSERIES:-} kernel, not linux-headers-amd64's ($want)" \
		[ "$kr" != "$want" ] && [ -d "$PTOP_REPO/build/vm/$kr/root/lib/modules/$kr" ]
fi
check "uname -r = PTOP_VM_KVER (${PTOP_VM_KVER:-})" [ "$kr" = "${PTOP_VM_KVER:-}" ]
check "the guest kernel is a Debian one" grep -q 'Debian' /proc/version
check "the guest kernel has module support" [ -e /proc/modules ]

check "/lib/modules/$kr of the guest kernel works (modinfo 9p)" eval \
	'[ "$(modinfo -F name 9p 2>/dev/null)" = 9p ]'
check "running as root" [ "$(id -u)" = 0 ]
# this script's "# vm-append:" line reached the guest kernel's command line
check "vm-append: ptop_vm_append_check=1 in /proc/cmdline" \
	grep -qw ptop_vm_append_check=1 /proc/cmdline
check "cwd is PTOP_REPO ($PTOP_REPO)" [ "$(pwd -P)" = "$(cd "$PTOP_REPO" && pwd -P)" ]
check "PATH starts with $PTOP_REPO/build" [ "${PATH%%:*}" = "$PTOP_REPO/build" ]
check "PATH has build/tests/helpers" eval '[[ ":$PATH:" == *":$PTOP_REPO/build/tests/helpers:"* ]]'

check "/proc/self/status readable" grep -q '^Name:' /proc/self/status
check "/sys mounted" [ -d /sys/kernel ]
check "devtmpfs: /dev/null is a char device" [ -c /dev/null ]
check "devpts mounted" grep -q ' /dev/pts devpts ' /proc/mounts
n=$(nproc)
check "nproc = 2 (got $n)" [ "$n" = 2 ]

# writable places
f=$PTOP_REPO/build/vm/harness-selftest.$$
check "write to the shared build dir" eval 'echo "hello $$" >"$f"'
check "read it back" [ "$(cat "$f" 2>/dev/null)" = "hello $$" ]
rm -f "$f"
check "/tmp writable" eval 't=$(mktemp) && echo x >"$t" && rm "$t"'
check "the host root is read-only" eval '! touch /ptop-vm-ro-probe 2>/dev/null'

# host binaries against the guest kernel
out=$(top -b -n 1 2>&1); rc=$?
check "top -b -n 1 runs (status $rc, shows a PID column)" eval '[ $rc = 0 ] && grep -q "PID" <<<"$out"'
echo "$out" | head -n 12

# the module
case ${PTOP_VM_KMOD:-} in
loaded)
	# the name from the file (normally ptop_taskstats; PTOP_VM_KO may differ)
	mod=$(modinfo -F name "${PTOP_VM_KMOD_FILE:-}" 2>/dev/null)
	mod=${mod:-ptop_taskstats}
	check "$mod is in /proc/modules" grep -q "^$mod " /proc/modules
	check "/sys/module/$mod exists" [ -d "/sys/module/$mod" ]
	check "the loaded file's vermagic starts with $kr" eval \
		'[[ "$(modinfo -F vermagic "$PTOP_VM_KMOD_FILE")" == "$kr "* ]]';;
absent)
	echo "note - module not loaded (PTOP_VM_KMOD=absent)";;
*)
	bad "PTOP_VM_KMOD is '${PTOP_VM_KMOD:-}' (want loaded or absent)";;
esac

[ $fail = 0 ] && echo "test_harness: all checks passed" || echo "test_harness: FAILED"
exit $fail
