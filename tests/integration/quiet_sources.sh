#!/usr/bin/env bash
# Quiet by default: the source ptop picks itself prints nothing on stderr
# (as root and as a user, without the module: the # line and the headline
# name it); --source=NAME that cannot open says so in one short line and
# exits 1; --list-sources keeps the long reasons (how to load the module).
# With the module loaded the kmod cases are skipped, the others run.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ -x "$PTOP" ] || make -s B="$B" "$PTOP" >/dev/null ||
	{ echo "FAIL: cannot build $PTOP"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
export XDG_CONFIG_HOME=$tmp HOME=$tmp
module=0
[ -e /proc/taskstats ] && module=1

# the automatic choice: stdout has the intervals, stderr nothing
check_quiet() {	# what, command...
	local what=$1
	shift
	"$@" -b -n 1 -d 0.2 >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc = 0 ] && [ ! -s "$tmp/err" ] &&
	   grep -q '^# source ' "$tmp/out" && grep -q '^ptop .* accounted ' "$tmp/out"; then
		ok "$what: nothing on stderr; $(grep -o '^# source [a-z_]*' "$tmp/out")"
	else
		bad "$what: rc $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
user=()
if [ "$(id -u)" = 0 ]; then
	check_quiet "root, auto" "$PTOP"
	user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
check_quiet "user, auto" "${user[@]}" "$PTOP"

# a named source that cannot open: one short line, exit 1
check_fails() {	# what, source, command...
	local what=$1 src=$2
	shift 2
	"$@" -b -n 1 -d 0.2 --source="$src" >"$tmp/out" 2>"$tmp/err"
	local rc=$? lines len
	lines=$(wc -l <"$tmp/err")
	len=$(wc -c <"$tmp/err")
	if [ $rc = 1 ] && [ "$lines" = 1 ] && [ "$len" -le 120 ] &&
	   grep -q "^ptop: no usable source: .*$src" "$tmp/err" &&
	   grep -q -- '--list-sources' "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$what: one line of $len bytes: $(cat "$tmp/err")"
	else
		bad "$what: rc $rc, $lines lines, $len bytes: $(head -c 400 "$tmp/err")"
	fi
}
if [ $module = 0 ]; then
	check_fails "--source=kmod without the module" kmod "$PTOP"
	check_fails "--source=kmod_nl without the module" kmod_nl "$PTOP"
	"$PTOP" --list-sources >"$tmp/list" 2>&1
	grep -q '^kmod_proc .*no .*modprobe ptop_taskstats' "$tmp/list" &&
		ok "--list-sources: the long reason (modprobe ptop_taskstats)" ||
		bad "--list-sources: $(cat "$tmp/list")"
else
	echo "SKIP: the module is loaded: no kmod failure to show"
fi
if [ ${#user[@]} -gt 0 ]; then
	check_fails "user, --source=taskstats" taskstats_nl "${user[@]}" \
		"$PTOP"
	"${user[@]}" "$PTOP" --list-sources >"$tmp/list" 2>&1
	grep -q '^taskstats_nl .*no .*setcap' "$tmp/list" &&
		ok "user, --list-sources: how to give taskstats its capability" ||
		bad "user, --list-sources: $(cat "$tmp/list")"
fi
# a name ptop does not know: a usage error (2), one line
"$PTOP" -b -n 1 --source=bogus >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && ok "--source=bogus: exit 2, one line" ||
	bad "--source=bogus: rc $rc: $(cat "$tmp/err")"

[ $fail = 0 ] && echo "PASS: quiet_sources" || echo "FAIL: quiet_sources"
exit $fail
