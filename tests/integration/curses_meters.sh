#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-meter configuration, in tmux against the real binary: ptoprc's
# meters_left / meters_right / meter_all choose which meters, in which
# column and order, bar or text; F2's Meters section changes them and s
# saves them, read back at the next start; a broken meter list is refused
# with file:line (exit 2) and the file is left as it was.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../helpers/tmux.sh"
cfgdir=$T_TMP/mcfg
rc=$cfgdir/ptop/ptoprc
mkdir -p "$cfgdir/ptop"

# --- the defaults: htop's layout -------------------------------------------
start def 100 30 --no-config --source=procfs -d 0.5
expect 'accounted [0-9.]+% of' "defaults: starts"
l1=$(pane | sed -n 2p)
[[ $l1 =~ ^\ +0\[.*\]\ Tasks:\  ]] && ok "defaults: CPU bars on the left, Tasks on the right" ||
	bad "defaults: line 2 '$l1'"
pane | grep -qE '^Mem\[' && pane | grep -qE '^Swp\[' && pane | grep -q 'Load average: ' &&
	pane | grep -q 'Uptime: ' && ok "defaults: Mem and Swp under the CPUs; load and uptime on the right" ||
	{ bad "defaults: no Mem/Load line"; pane | head -8 | sed 's/^/    | /'; }
keys q
wait_exit 5

# --- from ptoprc -------------------------------------------------------------
cat > "$rc" <<'RC'
version=1
meters_left=cpu:text
meters_right=mem:bar,load
meter_all=text
RC
XDG_CONFIG_HOME=$cfgdir start rc 100 30 --source=procfs -d 0.5
expect '^All: accounted [0-9.]+% of [0-9.]+%' "meter_all=text: the All meter as text"
expect '^ +0 +[0-9.]+%  usr [0-9.]+%  sys' "cpu:text: the CPUs as text"
pane | grep -qE '^ +0 .*Mem\[' && ok "mem:bar in the right column" || bad "no Mem bar on the right"
pane | grep -q 'Load average:' && ok "load shown" || bad "load not shown"
pane | grep -qE 'Swp|Uptime|Tasks:' && bad "a meter not listed is shown" ||
	ok "swap, uptime, tasks (not listed) hidden"
pane | grep -qE '^All\[' && bad "the All bar is drawn" || ok "no All bar"

# --- F2: the swap meter shown, the CPUs as bars, saved ------------------------
keys F2 Tab
expect '^Setup: .*\[Meters\]' "F2 Tab: the Meters section"
expect '\[x\] left +cpu +text' "setup lists cpu, left, text"
expect '\[ \] hidden +swap' "setup lists swap as hidden"
keys Down b
expect '\[x\] left +cpu +bar' "b: cpu as a bar"
# the hidden ones come after the shown ones: cpu, mem, load, then swap
n=$(pane | grep -nE '\[ \] hidden +swap' | cut -d: -f1)
c=$(pane | grep -nE '\[x\] left +cpu' | cut -d: -f1)
for ((i = c; i < n; i++)); do keys Down; done
keys Space
expect '\[x\] right +swap' "Space: swap shown, in the right column"
keys s
expect "saved .*mcfg/ptop/ptoprc" "s: saved"
grep -qx 'meters_left=cpu:bar' "$rc" && ok "ptoprc: meters_left=cpu:bar" ||
	bad "ptoprc: $(grep meters_left "$rc")"
grep -qx 'meters_right=mem:bar,load,swap:bar' "$rc" && ok "ptoprc: meters_right=mem:bar,load,swap:bar" ||
	bad "ptoprc: $(grep meters_right "$rc")"
grep -qx 'meter_all=text' "$rc" && ok "ptoprc: meter_all=text kept" || bad "ptoprc: $(grep meter_all "$rc")"
expect '^ +0\[' "the CPU bars at once"
expect 'Swp\[' "the swap bar at once"
keys q
wait_exit 5
XDG_CONFIG_HOME=$cfgdir start rc2 100 30 --source=procfs -d 0.5
expect '^ +0\[.*Mem\[' "read back: CPU bars, Mem on the right" 8
expect 'Swp\[' "read back: the swap bar"
keys q
wait_exit 5

# --- a broken meter list: refused, file:line, nothing changed ----------------
printf 'version=1\nmeters_left=cpu:pie\n' > "$rc"
sum=$(md5sum < "$rc")
out=$(XDG_CONFIG_HOME=$cfgdir "$PTOP" -b -n 1 -d 0.1 --source=procfs 2>&1 >/dev/null)
st=$?
[ $st = 2 ] && ok "a broken meter list: exit 2" || bad "broken meters: exit $st"
[[ $out == *"ptoprc:2: unknown style 'pie' for meter cpu (bar or text)"* ]] &&
	ok "the message names file:line and why ($out)" || bad "message: '$out'"
[ "$(md5sum < "$rc")" = "$sum" ] && ok "the file is unchanged" || bad "the file changed"
printf 'version=1\nmeters_right=tasks:bar\n' > "$rc"
out=$(XDG_CONFIG_HOME=$cfgdir "$PTOP" -b -n 1 -d 0.1 --source=procfs 2>&1 >/dev/null)
[[ $out == *"ptoprc:2: meter tasks has no bar (text only)"* ]] && ok "a bar for a text meter: refused" ||
	bad "tasks:bar: '$out'"

finish curses_meters
