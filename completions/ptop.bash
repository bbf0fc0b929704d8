# bash completion for ptop(1)                                 -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0

_ptop_columns()
{
	"$1" --list-columns 2>/dev/null | while read -r name _; do
		printf '%s\n' "$name"
	done
}

# the format names from the binary (one table: ptop --list-formats)
_ptop_formats()
{
	"$1" --list-formats 2>/dev/null | while read -r name _; do
		printf '%s\n' "$name"
	done
}

_ptop()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd=${COMP_WORDS[0]} cols prefix
	local opts="-b --batch -d --delay= -n --iterations= -o --columns=
		-s --sort= -p --pid= --threads --source= --tree --events --format= --top=
		-c --config= --no-config --drop-capabilities= --list-columns --list-sources --list-formats
		-h --help -V --version"
	local sources="auto kmod_proc kmod_nl taskstats_nl procfs"

	command -v "$cmd" >/dev/null 2>&1 || cmd=ptop
	# "--opt=value": bash splits at '=' (COMP_WORDBREAKS)
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi

	case $prev in
	--format)
		COMPREPLY=($(compgen -W "$(_ptop_formats "$cmd")" -- "$cur"))
		return
		;;
	-o | --columns)
		cols=$(_ptop_columns "$cmd")
		prefix=
		[[ $cur == *,* ]] && prefix=${cur%,*},
		COMPREPLY=($(compgen -P "$prefix" -W "$cols" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return
		;;
	-s | --sort)
		cols=$(_ptop_columns "$cmd")
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -P - -W "$cols" -- "${cur#-}"))
		else
			COMPREPLY=($(compgen -W "$cols" -- "$cur"))
		fi
		return
		;;
	--source)
		COMPREPLY=($(compgen -W "$sources" -- "$cur"))
		return
		;;
	--drop-capabilities)
		COMPREPLY=($(compgen -W "off basic strict" -- "$cur"))
		return
		;;
	-c | --config)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	-p | --pid)
		COMPREPLY=($(compgen -W "$(cd /proc 2>/dev/null && printf '%s ' [0-9]*)" -- "$cur"))
		return
		;;
	-d | --delay | -n | --iterations | --top)
		return
		;;
	esac

	COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	[[ ${COMPREPLY-} == *= ]] && compopt -o nospace 2>/dev/null
}

complete -F _ptop ptop
