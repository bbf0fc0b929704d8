# fish completion for tstime(1)
# SPDX-License-Identifier: GPL-2.0

# options only before the command; after it, the command's own completions
function __tstime_no_command
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    for t in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $t
            case -o --output -f --format -r --repeat --warmup
                set skip 1
            case '-*'
            case '*'
                return 1
        end
    end
    return 0
end

complete -c tstime -n __tstime_no_command -a '(__fish_complete_command)' -d 'command'
complete -c tstime -n 'not __tstime_no_command' -x -a '(__fish_complete_subcommand -- -o --output -f --format -r --repeat --warmup)'
complete -c tstime -n __tstime_no_command -s o -l output -r -F -d 'write the report to FILE'
complete -c tstime -n __tstime_no_command -s a -l append -d 'append to the output file'
complete -c tstime -n __tstime_no_command -s f -l format -x -d 'GNU time style format'
complete -c tstime -n __tstime_no_command -s p -l portability -d 'POSIX format: real/user/sys'
complete -c tstime -n __tstime_no_command -l json -d 'one JSON object'
complete -c tstime -n __tstime_no_command -l tree -d 'CPU time per command name'
complete -c tstime -n __tstime_no_command -l source -x -a 'kmod taskstats rusage' -d 'where the numbers come from'
complete -c tstime -n __tstime_no_command -l no-wait -d 'stop when the command exits'
complete -c tstime -n __tstime_no_command -l no-cgroup -d 'total from wait4 and the records, no cgroup'
complete -c tstime -n __tstime_no_command -s r -l repeat -x -d 'run N times, report statistics'
complete -c tstime -n __tstime_no_command -l warmup -x -d 'unmeasured runs before the measured ones'
complete -c tstime -n __tstime_no_command -s q -l quiet -d 'no warnings'
complete -c tstime -n __tstime_no_command -s v -l verbose -d 'the full report, as GNU time -v'
complete -c tstime -n __tstime_no_command -l explain -d 'say which source was used, and why'
complete -c tstime -n __tstime_no_command -l drop-capabilities -x -a 'off basic strict' -d 'capabilities kept once the source is open'
complete -c tstime -n __tstime_no_command -s h -l help -d 'usage'
complete -c tstime -n __tstime_no_command -s V -l version -d 'version'
