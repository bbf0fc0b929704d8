#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ptoprc through the command line: a config file sets the defaults,
# options override it, a broken file makes ptop exit 2 naming file:line
# and leaves the file as it was, a newer ptop's key or version is a
# warning; the system-wide layers (/etc/ptoprc, $XDG_CONFIG_DIRS) under
# the user's file; --no-config and -c FILE. The system directory is a
# temporary one (PTOP_SYSCONFDIR): the real /etc is never read or written.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/ptop_cfgcli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/xdg
export PTOP_SYSCONFDIR=$tmp/etc XDG_CONFIG_DIRS=$tmp/xdg1:$tmp/xdg2
rc=$XDG_CONFIG_HOME/ptop/ptoprc
run() { "$PTOP" -b -n 1 -d 0.2 --source=procfs "$@"; }
header() { run "$@" 2>&1 | grep -m1 -E '^ *PID( |$)'; }
# the first column of the table's row N (1: the first after the header)
row1() { awk -v n="$1" 'h && ++k == n { print $1; exit } /^ *PID( |$)/ { h = 1 }'; }

mkdir -p "$(dirname "$rc")"
printf 'version=1\ncolumns=PID,sys,COMMAND\nsort=-PID\ndelay=0.2\n' > "$rc"
h=$(header)
[[ $h =~ ^\ *PID\ +sys\ +COMMAND$ ]] && ok "config columns used" || bad "header '$h'"
first=$(run | row1 1)
second=$(run | row1 2)
[ -n "$first" ] && [ "$first" -lt "$second" ] && ok "config sort=-PID (ascending)" ||
	bad "sort: $first then $second"
h=$(header -o PID,total,COMMAND)
[[ $h =~ ^\ *PID\ +total\ +COMMAND$ ]] && ok "-o overrides the config" || bad "header '$h'"
h=$(header --no-config)
[[ $h == *USER* && $h == *total*c\** ]] && ok "--no-config: built-in columns" || bad "header '$h'"

printf 'version=1\ncolumns=PID,USER,COMMAND\n' > "$tmp/other"
h=$(header -c "$tmp/other")
[[ $h =~ ^\ *PID\ +USER\ +COMMAND$ ]] && ok "-c FILE" || bad "header '$h'"
# -c names one file: one it cannot read is an error saying why (a typo
# must not quietly give the defaults); the default path missing is silent
cfg_unreadable() {	# path, words, what
	out=$(timeout 20 "$PTOP" -b -n 1 -d 0.2 --source=procfs -c "$1" 2>&1 >/dev/null)
	st=$?
	[ $st = 2 ] && [ "$out" = "ptop: $1$2" ] && ok "-c $3: exit 2, '$out'" ||
		bad "-c $3: status $st, '$out'"
}
cfg_unreadable "$tmp/missing" ": No such file or directory" "a missing file"
cfg_unreadable "$tmp" ": Is a directory" "a directory"
# a file without newlines is refused at its first bytes, not read whole
# into memory (the limit: 256 MB of address space)
cfg_unreadable /dev/zero ":1: binary data (not a ptoprc text file)" "/dev/zero"
out=$( (ulimit -v 262144; timeout 20 "$PTOP" -b -n 1 -d 0.2 --source=procfs \
	-c <(yes columns=PID,COMMAND | tr -d '\n') 2>&1 >/dev/null) )
st=$?
[ $st = 2 ] && [[ $out == *":1: line too long (over 4096 bytes)" ]] &&
	ok "-c an endless line: exit 2, '$out'" || bad "-c an endless line: status $st, '$out'"
out=$( (ulimit -v 262144; timeout 20 "$PTOP" -b -n 1 -d 0.2 --source=procfs \
	-c <(yes '# a comment') 2>&1 >/dev/null) )
st=$?
[ $st = 2 ] && [[ $out == *": file too long (over 1048576 bytes)" ]] &&
	ok "-c endless short lines: exit 2, '$out'" || bad "-c endless short lines: status $st, '$out'"
out=$(env XDG_CONFIG_HOME="$tmp/none" "$PTOP" -b -n 1 -d 0.2 --source=procfs 2>&1 >/dev/null)
[ $? = 0 ] && [ -z "$out" ] && ok "the default path missing: silent, exit 0" ||
	bad "the default path missing: '$out'"

# the example's columns line, as a user uncomments it (with S, the
# header's title of STATE), and -o/-s by the header's titles
sed 's/^#columns=/columns=/' "$top/config/ptoprc.example" >"$tmp/example"
grep -q '^columns=.*,S,' "$tmp/example" || bad "the example has no columns line with S"
h=$(header -c "$tmp/example")
st=$?
[[ $h =~ ^\ *PID\ +USER\ +S\ +user ]] && ok "the example's columns line (with S) is accepted" ||
	bad "the example's columns line: '$h'"
h=$(header -o PID,S,THR,c*,x*,COMMAND -s S)
[[ $h =~ ^\ *PID\ +S\ +THR\ +c\*\ +x\*\ +COMMAND$ ]] && ok "-o and -s by the header's titles (S, THR, c*, x*)" ||
	bad "-o S,THR,c*,x*: '$h'"

check_broken() {	# content, line, words
	printf "$1" > "$rc"
	cp "$rc" "$tmp/before"
	out=$(run 2>&1 >/dev/null)
	st=$?
	if [ $st = 2 ] && [[ $out == *"$rc:$2:"*"$3"* ]]; then ok "broken ($3): exit 2, '$out'"
	else bad "broken ($3): status $st, '$out'"; fi
	cmp -s "$rc" "$tmp/before" || bad "broken config was changed"
}
check_broken 'version=1\ncolumns=PID,nosuch\n' 2 "unknown column 'nosuch'"
check_broken 'version=0\n' 1 "unsupported version"
check_broken 'version=x\n' 1 "unsupported version"
check_broken 'version=1\ncolumns=PID,PID,PID\n' 2 "column 'PID' listed twice"
check_broken 'delay=-1\n' 1 "bad delay"
check_broken 'tree=maybe\n' 1 "bad value"
check_broken 'version=1\n\x01\x02\x03\n' 2 "binary data"
head -c 5000 /dev/zero | tr '\0' a > "$rc.long"
check_broken "columns=$(cat "$rc.long")\n" 1 "line too long"
# a newer ptop's key or version: a warning naming file:line, the rest read
check_newer() {	# content, line, words
	printf "$1" > "$rc"
	cp "$rc" "$tmp/before"
	out=$(run 2>&1 >/dev/null)
	st=$?
	h=$(run 2>/dev/null | grep -m1 -E '^ *PID( |$)')
	if [ $st = 0 ] && [[ $out == "ptop: warning: $rc:$2: "*"$3"* ]] &&
	   [[ $h =~ ^\ *PID\ +COMMAND$ ]]; then ok "newer ($3): exit 0, '$out', other keys used"
	else bad "newer ($3): status $st, '$out', header '$h'"; fi
	cmp -s "$rc" "$tmp/before" || bad "newer: the config was changed"
}
check_newer 'version=1\nfrobnicate=1\ncolumns=PID,COMMAND\n' 2 "unknown key 'frobnicate' (from a newer ptop?): ignored"
check_newer 'version=2\ncolumns=PID,COMMAND\ngraphs=cpu,mem\n' 1 "version 2 is newer than this ptop's (1)"

# a broken file is refused even when options would override it
printf 'sort=nosuch\n' > "$rc"
"$PTOP" -b -n 1 -s total >/dev/null 2>&1
[ $? = 2 ] && ok "broken config refused despite -s" || bad "broken config accepted"
# ...but --no-config skips it
run --no-config >/dev/null 2>&1 && ok "--no-config ignores a broken file" ||
	bad "--no-config with a broken file"

# --- the system-wide layers under the user's file --------------------------
rm -f "$rc"
mkdir -p "$tmp/etc" "$tmp/xdg1/ptop" "$tmp/xdg2/ptop"
printf 'columns=PID,COMMAND\nsort=-PID\n' > "$tmp/etc/ptoprc"
h=$(header)
[[ $h =~ ^\ *PID\ +COMMAND$ ]] && ok "/etc/ptoprc (PTOP_SYSCONFDIR) read" || bad "etc: header '$h'"
printf 'columns=PID,USER,COMMAND\n' > "$tmp/xdg2/ptop/ptoprc"
h=$(header)
[[ $h =~ ^\ *PID\ +USER\ +COMMAND$ ]] && ok "XDG_CONFIG_DIRS over /etc/ptoprc" || bad "xdg2: header '$h'"
printf 'columns=PID,STATE,COMMAND\n' > "$tmp/xdg1/ptop/ptoprc"
h=$(header)
[[ $h =~ ^\ *PID\ +S\ +COMMAND$ ]] && ok "the first XDG_CONFIG_DIRS entry wins" || bad "xdg1: header '$h'"
first=$(run | row1 1)
second=$(run | row1 2)
[ -n "$first" ] && [ "$first" -lt "$second" ] && ok "keys a higher layer does not set stay (sort=-PID from /etc)" ||
	bad "layered sort: $first then $second"
printf 'columns=PID,total,COMMAND\n' > "$rc"
h=$(header)
[[ $h =~ ^\ *PID\ +total\ +COMMAND$ ]] && ok "the user's file over the system-wide ones" || bad "user: header '$h'"
h=$(header -c "$tmp/other")
[[ $h =~ ^\ *PID\ +USER\ +COMMAND$ ]] && ok "-c FILE alone: no system layer" || bad "-c: header '$h'"
rm -f "$rc"
printf 'delay=soon\n' > "$tmp/xdg2/ptop/ptoprc"
out=$(run 2>&1 >/dev/null)
[ $? = 2 ] && [[ $out == "ptop: $tmp/xdg2/ptop/ptoprc:1: bad delay 'soon'"* ]] &&
	ok "a broken system-wide file: exit 2, '$out'" || bad "broken system file: '$out'"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	printf 'columns=PID,COMMAND\n' > "$tmp/xdg2/ptop/ptoprc"
	chmod 600 "$tmp/xdg2/ptop/ptoprc"
	chmod 755 "$tmp" "$tmp/etc" "$tmp/xdg1" "$tmp/xdg1/ptop" "$tmp/xdg2" "$tmp/xdg2/ptop"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent XDG_CONFIG_HOME= \
		"$PTOP" -b -n 1 -d 0.2 --source=procfs 2>&1 >/dev/null)
	st=$?
	[ $st = 0 ] && [[ $out == *"$tmp/xdg2/ptop/ptoprc: Permission denied (skipped)"* ]] &&
		ok "an unreadable system-wide file is skipped: '$out'" || bad "unreadable system file: status $st, '$out'"
fi
[ -e /etc/ptoprc ] && echo "  note: this machine has an /etc/ptoprc; the tests above did not read it"

finish config_cli
