#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# man/ptop.1 and the shell completions stay in sync with the binary:
# every column of "ptop --list-columns" has its entry in the man page's
# COLUMNS section (and nothing else is there), every long option of
# "ptop --help" is in the man page and in each completion file.
set -u
. "$(dirname "$0")/lib.sh"
man=$top/man/ptop.1

need_bins "$PTOP"
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

# the sources: one set of names in --help, --list-sources, the example
# config, the man page's Sources and --source, and the completions
srcs=$("$PTOP" --list-sources | awk '{print $1}' | paste -sd' ')
[ -n "$srcs" ] || bad "ptop --list-sources printed nothing"
help_srcs=$("$PTOP" --help | sed -n 's/^ *--source=NAME *//p' | tr -d ',')
[ "$help_srcs" = "auto $srcs" ] || bad "sources: --help '$help_srcs', --list-sources '$srcs'"
ex=$(sed -n 's/^# ptop --list-sources: //p' "$top/config/ptoprc.example" | tr -d ',')
[ "$ex" = "$srcs" ] || bad "sources: config/ptoprc.example '$ex', --list-sources '$srcs'"
man_srcs=$(printf '%s\n' "$plain" |
	awk '/^\.SS /{on = ($2 == "Sources")} on && /^\.B / && prev == ".TP" {print $2} {prev = $0}' | paste -sd' ')
[ "$man_srcs" = "$srcs" ] || bad "sources: man/ptop.1 Sources '$man_srcs', --list-sources '$srcs'"
man_opt=$(printf '%s\n' "$plain" | awk '/^\.BR --source =/{getline; print; exit}' |
	grep -oE '\b(auto|[a-z]+_[a-z]+|procfs)\b' | paste -sd' ')
[ "$man_opt" = "auto $srcs" ] || bad "sources: man/ptop.1 --source '$man_opt', --list-sources '$srcs'"
for f in ptop.bash _ptop ptop.fish; do
	grep -qF "auto $srcs" "$top/completions/$f" ||
		bad "sources: completions/$f does not complete 'auto $srcs'"
done
out=$("$PTOP" -b -n 1 -d 0.2 --no-config --source=procfs 2>/dev/null | grep -m1 '^ptop ')
[[ $out == *" source procfs "* ]] || bad "sources: headline '$out'"

# ptoprc(5): every key config/cfg.c reads has its entry, and no other
keys=$(grep -o 'strcmp(key, "[a-z_]*")' "$top/config/cfg.c" | sed 's/.*"\(.*\)")/\1/' | sort -u)
man5_keys=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$top/man/ptoprc.5" |
	awk '/^\.SH /{on = ($2 == "KEYS")} on && /^\.B[IR]? /{print}' |
	grep -oE '\b[a-z_]+=' | tr -d = | sort -u)
[ -n "$keys" ] && [ "$keys" = "$man5_keys" ] ||
	bad "ptoprc(5) KEYS '$(echo $man5_keys)' vs config/cfg.c '$(echo $keys)'"

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

finish man_sync
