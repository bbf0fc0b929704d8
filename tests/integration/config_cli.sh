#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ptoprc through the command line: a config file sets the defaults,
# options override it, a broken file makes ptop exit 2 naming file:line
# and leaves the file as it was; --no-config and -c FILE.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
tmp=$(mktemp -d /tmp/ptop_cfgcli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok()  { echo "  ok: $*"; }
bad() { echo "  FAIL: $*"; fails=$((fails + 1)); }
export XDG_CONFIG_HOME=$tmp/xdg
rc=$XDG_CONFIG_HOME/ptop/ptoprc
run() { "$PTOP" -b -n 1 -d 0.2 --source=procfs "$@"; }
header() { run "$@" 2>&1 | grep -v '^#' | sed -n 3p; }

mkdir -p "$(dirname "$rc")"
printf 'version=1\ncolumns=PID,sys,COMMAND\nsort=-PID\ndelay=0.2\n' > "$rc"
h=$(header)
[[ $h =~ ^\ *PID\ +sys\ +COMMAND$ ]] && ok "config columns used" || bad "header '$h'"
first=$(run | grep -v '^#' | sed -n 4p | awk '{print $1}')
second=$(run | grep -v '^#' | sed -n 5p | awk '{print $1}')
[ -n "$first" ] && [ "$first" -lt "$second" ] && ok "config sort=-PID (ascending)" ||
	bad "sort: $first then $second"
h=$(header -o PID,total,COMMAND)
[[ $h =~ ^\ *PID\ +total\ +COMMAND$ ]] && ok "-o overrides the config" || bad "header '$h'"
h=$(header --no-config)
[[ $h == *USER* && $h == *cuser* ]] && ok "--no-config: built-in columns" || bad "header '$h'"

printf 'version=1\ncolumns=PID,USER,COMMAND\n' > "$tmp/other"
h=$(header -c "$tmp/other")
[[ $h =~ ^\ *PID\ +USER\ +COMMAND$ ]] && ok "-c FILE" || bad "header '$h'"
h=$(header --config="$tmp/missing")
[[ $h == *cuser* ]] && ok "-c with a missing file: defaults" || bad "header '$h'"

check_broken() {	# content, line, words
	printf "$1" > "$rc"
	cp "$rc" "$tmp/before"
	out=$(run 2>&1 >/dev/null)
	st=$?
	if [ $st = 2 ] && [[ $out == *"$rc:$2:"*"$3"* ]]; then ok "broken ($3): exit 2, '$out'"
	else bad "broken ($3): status $st, '$out'"; fi
	cmp -s "$rc" "$tmp/before" || bad "broken config was changed"
}
check_broken 'version=1\nfrobnicate=1\n' 2 "unknown key"
check_broken 'version=1\ncolumns=PID,nosuch\n' 2 "unknown column 'nosuch'"
check_broken 'version=1\ncolumns=PID,PID,PID\n' 2 "column 'PID' listed twice"
check_broken 'version=9\n' 1 "unsupported version"
check_broken 'delay=-1\n' 1 "bad delay"
check_broken 'tree=maybe\n' 1 "bad value"
check_broken 'version=1\n\x01\x02\x03\n' 2 "binary data"
head -c 5000 /dev/zero | tr '\0' a > "$rc.long"
check_broken "columns=$(cat "$rc.long")\n" 1 "line too long"
# a broken file is refused even when options would override it
printf 'sort=nosuch\n' > "$rc"
"$PTOP" -b -n 1 -s total >/dev/null 2>&1
[ $? = 2 ] && ok "broken config refused despite -s" || bad "broken config accepted"
# ...but --no-config skips it
run --no-config >/dev/null 2>&1 && ok "--no-config ignores a broken file" ||
	bad "--no-config with a broken file"

[ $fails = 0 ] && echo "config_cli: all passed" || echo "config_cli: $fails failed"
[ $fails = 0 ]
