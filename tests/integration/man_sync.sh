#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# man/ptop.1 and the shell completions stay in sync with the binary:
# every column of "ptop --list-columns" has its entry in the man page's
# COLUMNS section (and nothing else is there), every long option of
# "ptop --help" is in the man page and in each completion file.
set -u
B=${B:-build}
PTOP=${PTOP:-$B/ptop}
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/man/ptop.1
fails=0
bad() { echo "  FAIL: $*"; fails=$((fails + 1)); }

[ -x "$PTOP" ] || { echo "FAIL: $PTOP not built"; exit 1; }
[ -f "$man" ] || { echo "FAIL: $man missing"; exit 1; }

# the man source with roff escapes undone: \- -> -, fonts dropped
plain=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man")
# ".B name" lines of the COLUMNS section
man_cols=$(printf '%s\n' "$plain" |
	awk '/^\.SH /{on = ($2 == "COLUMNS")} on && /^\.B /{print $2}' | sort)
bin_cols=$("$PTOP" --list-columns | awk '{print $1}' | sort)
[ -n "$bin_cols" ] || bad "ptop --list-columns printed nothing"
for c in $bin_cols; do
	grep -qx "$c" <<<"$man_cols" || bad "column $c is not in the COLUMNS section of man/ptop.1"
done
for c in $man_cols; do
	grep -qx "$c" <<<"$bin_cols" || bad "man/ptop.1 documents column $c that ptop does not have"
done

opts=$("$PTOP" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ -n "$opts" ] || bad "ptop --help shows no long options"
for o in $opts; do
	grep -qF -- "$o" <<<"$plain" || bad "option $o is not in man/ptop.1"
	for f in ptop.bash _ptop ptop.fish; do
		file=$top/completions/$f
		[ -f "$file" ] || { bad "completions/$f missing"; continue; }
		if [ "$f" = ptop.fish ]; then
			grep -qE -- "-l ${o#--}( |$)" "$file" ||
				bad "option $o is not in completions/$f"
		else
			grep -qE -- "$o([]=[ '\"},+]|$)" "$file" ||
				bad "option $o is not in completions/$f"
		fi
	done
done

# the batch formats: one table in the binary; the man page describes each
# one, and the completions ask the binary (--list-formats) for the names
fmts=$("$PTOP" --list-formats | awk '{print $1}')
[ -n "$fmts" ] || bad "ptop --list-formats printed nothing"
man_fmts=$(printf '%s\n' "$plain" |
	awk '/^\.BI --format=/{on = 1; next} on && /^\.RE/{on = 0} on && /^\.B [a-z]+$/ && prev == ".TP" {print $2} {prev = $0}')
[ "$(sort <<<"$fmts")" = "$(sort <<<"$man_fmts")" ] ||
	bad "formats: ptop --list-formats '$(echo $fmts)' vs man/ptop.1 --format '$(echo $man_fmts)'"
for f in ptop.bash _ptop ptop.fish; do
	grep -q -- "--list-formats 2>/dev/null" "$top/completions/$f" ||
		bad "completions/$f does not take the format names from --list-formats"
done
got=$(bash -c '. "$1"; COMP_WORDS=("$2" --format ""); COMP_CWORD=2; _ptop; echo "${COMPREPLY[*]}"' _ \
	"$top/completions/ptop.bash" "$PTOP")
[ "$got" = "$(echo $fmts)" ] || bad "bash completes --format with '$got', not '$(echo $fmts)'"
if command -v fish >/dev/null; then
	got=$(fish -c "source $top/completions/ptop.fish; complete -C '$PTOP --format='" 2>/dev/null |
		sed 's/\t.*//; s/^--format=//' | sort | paste -sd' ')
	[ "$got" = "$(sort <<<"$fmts" | paste -sd' ')" ] || bad "fish completes --format with '$got'"
fi

# the example the man page promises works
"$PTOP" -b -d 0.2 -n 1 --no-config --source=procfs \
	-o PID,user,sys,cuser,csys,total,COMMAND >/dev/null ||
	bad "the EXAMPLES command fails"
bash -n "$top/completions/ptop.bash" || bad "completions/ptop.bash: syntax"
if command -v zsh >/dev/null; then
	zsh -n "$top/completions/_ptop" || bad "completions/_ptop: syntax"
fi
if command -v fish >/dev/null; then
	fish -n "$top/completions/ptop.fish" || bad "completions/ptop.fish: syntax"
fi
if command -v groff >/dev/null; then
	w=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
	[ -z "$w" ] || bad "groff warnings: $w"
fi

[ $fails = 0 ] && echo "man_sync: all passed" || echo "man_sync: $fails failed"
[ $fails = 0 ]
