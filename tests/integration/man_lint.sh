#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every man page renders without a single warning: groff -ww (all warnings)
# and mandoc -Tlint (warnings and errors; its style notes are not warnings).
set -u
. "$(dirname "$0")/lib.sh"

pages=$(ls "$top"/man/*.[1-9] 2>/dev/null)
[ -n "$pages" ] || { echo "FAIL: no man pages in $top/man"; exit 1; }
for tool in groff mandoc; do
	command -v $tool >/dev/null || bad "$tool missing (Debian package $([ $tool = groff ] && echo groff-base || echo mandoc))"
done
for m in $pages; do
	n=${m#"$top"/}
	if command -v groff >/dev/null; then
		w=$(groff -man -Tutf8 -ww -z "$m" 2>&1)
		[ -z "$w" ] && ok "groff -ww $n: no warnings" || bad "groff -ww $n: $w"
		lines=$(groff -man -Tutf8 "$m" 2>/dev/null | wc -l)
		[ "$lines" -gt 20 ] || bad "$n renders to only $lines lines"
	fi
	if command -v mandoc >/dev/null; then
		w=$(mandoc -Tlint -W warning "$m" 2>&1)
		[ -z "$w" ] && ok "mandoc -Tlint $n: clean" || bad "mandoc -Tlint $n: $w"
	fi
done
# the section in the file name is the section in .TH
for m in $pages; do
	sec=${m##*.}
	th=$(awk '/^\.TH /{print $3; exit}' "$m")
	[ "$th" = "$sec" ] || bad "${m#"$top"/}: .TH says section '$th'"
done

finish man_lint
