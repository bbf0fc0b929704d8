#!/bin/bash
# Who may open /proc/taskstats beyond its file mode: an answer holds
# every task of the reader's pid namespace with its exit code, which
# /proc shows only to readers ptrace allows. A member of reader_gid may;
# anyone else needs CAP_SYS_PTRACE in the initial user namespace. Root
# of a container without a user namespace (a pid + mount namespace with
# its own /proc, CAP_SYS_PTRACE dropped, as container runtimes do) is
# refused with EPERM; with the capability kept it reads its namespace.
. "$(dirname "$0")/kmod_common.sh"
require_module
NOGROUP=$(getent group nogroup | cut -d: -f3)
NOBODY=$(id -u nobody)
W=$(mktemp -d)
chmod 755 "$W"

rmmod ptop_taskstats && insmod "$KO" reader_gid="$NOGROUP" ||
	{ bad "reload with reader_gid=$NOGROUP"; finish test_kmod_access; }

# ask TAG CMD...: one tsquery (PIDS over /proc/taskstats) run by CMD...
ask() {
	local tag=$1
	shift
	"$@" tsquery >"$W/$tag" 2>&1
}
refused() { ! ask "$@"; }
noptrace() { setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace "$@"; }

check "root of the initial namespaces reads" ask root env
check "a reader_gid member without capabilities reads" \
	ask member setpriv --reuid="$NOBODY" --regid="$NOGROUP" --clear-groups
check "root of a pid + mount namespace with CAP_SYS_PTRACE reads" \
	ask ns_root unshare -pf --mount-proc
check "root of a pid + mount namespace reads only its own tasks ($(cat "$W/ns_root"))" \
	grep -qE 'count=[1-9]$|count=[1-9] ' "$W/ns_root"
check "root without CAP_SYS_PTRACE is refused" \
	refused noptrace noptrace
check "the refusal says EPERM ($(head -c 200 "$W/noptrace"))" \
	grep -qiE 'not permitted|EPERM' "$W/noptrace"
check "container root (pid + mount namespace, /proc mounted, no CAP_SYS_PTRACE) is refused" \
	refused ct_root noptrace unshare -pf --mount-proc
check "its refusal says EPERM ($(head -c 200 "$W/ct_root"))" \
	grep -qiE 'not permitted|EPERM' "$W/ct_root"
check "a member of reader_gid without CAP_SYS_PTRACE in such a namespace reads" \
	ask ct_member unshare -pf --mount-proc setpriv --reuid="$NOBODY" \
		--regid="$NOGROUP" --clear-groups --bounding-set=-sys_ptrace
check "a user outside reader_gid is refused" \
	refused other setpriv --reuid="$NOBODY" --regid=12345 --clear-groups
check "refused opens left nothing open" wait_state open_files 0 10
check_idle_state "access"
check_dmesg "access"
rm -rf "$W"
finish test_kmod_access
