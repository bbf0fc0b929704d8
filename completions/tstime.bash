# bash completion for tstime(1)                             -*- shell-script -*-

_tstime()
{
	local cur prev words cword i
	_init_completion -s || return

	# after the command: complete its own arguments
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-o | -f | -r | --output | --format | --repeat | --warmup)
			((i++))
			continue
			;;
		-*) continue ;;
		esac
		_command_offset $i
		return
	done

	case $prev in
	-r | --repeat | --warmup)
		return
		;;
	-o | --output)
		_filedir
		return
		;;
	-f | --format)
		COMPREPLY=($(compgen -W "'%e %U %S' '%E %G %P' '%n %N %M' '%x %C'" -- "$cur"))
		return
		;;
	--drop-capabilities)
		COMPREPLY=($(compgen -W 'off basic strict' -- "$cur"))
		return
		;;
	--source)
		COMPREPLY=($(compgen -W 'kmod taskstats rusage' -- "$cur"))
		return
		;;
	esac
	$split && return

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-o --output -a --append -f --format
			-p --portability --json --tree --source= --no-wait --no-cgroup
			-r --repeat --warmup -q --quiet -v --verbose --explain
			--drop-capabilities=
			-h --help -V --version' -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	COMPREPLY=($(compgen -c -- "$cur"))
} &&
	complete -F _tstime tstime

# ex: filetype=sh
