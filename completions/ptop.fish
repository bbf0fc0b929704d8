# fish completion for ptop(1)
# SPDX-License-Identifier: GPL-2.0

function __ptop_columns
    set -l cmd (commandline -opc)[1]
    command $cmd --list-columns 2>/dev/null | string replace -r '^(\S+)\s+\S+\s+(\(\S*\)\s+)?(.*)$' '$1\t$3'
end

# the format names from the binary (one table: ptop --list-formats)
function __ptop_formats
    set -l cmd (commandline -opc)[1]
    command $cmd --list-formats 2>/dev/null | string replace -r '^(\S+)\s+(.*)$' '$1\t$2'
end

# a comma separated list: complete the last item
function __ptop_column_list
    set -l tok (commandline -ct | string replace -r '^(-o|--columns=)' '')
    set -l prefix (string match -r '^.*,' -- $tok)
    for c in (__ptop_columns)
        printf '%s%s\n' "$prefix" $c
    end
end

function __ptop_sort_columns
    for c in (__ptop_columns)
        printf '%s\n' $c
        set -l name (string replace -r '\t.*' '' -- $c)
        printf '%s\tascending\n' -$name
    end
end

complete -c ptop -f
complete -c ptop -s b -l batch -d 'batch output for scripts'
complete -c ptop -s d -l delay -x -d 'seconds between updates'
complete -c ptop -s n -l iterations -x -d 'stop after N intervals'
complete -c ptop -s o -l columns -x -a '(__ptop_column_list)' -d 'columns to show'
complete -c ptop -s s -l sort -x -a '(__ptop_sort_columns)' -d 'sort column, -COL ascending'
complete -c ptop -s p -l pid -x -a '(__fish_complete_pids)' -d 'show only these processes'
complete -c ptop -l threads -d 'one row per thread'
complete -c ptop -l source -x -a 'auto kmod_proc kmod_nl taskstats_nl procfs' -d 'where the numbers come from'
complete -c ptop -l tree -d 'start the interactive view in tree mode'
complete -c ptop -l events -d 'log process events with ns timestamps (module)'
complete -c ptop -l format -x -a '(__ptop_formats)' -d 'batch output format'
complete -c ptop -l top -x -d 'batch: only the first N rows'
complete -c ptop -s c -l config -r -F -d 'configuration file'
complete -c ptop -l no-config -d 'ignore the configuration file'
complete -c ptop -l drop-capabilities -x -a 'off basic strict' -d 'capabilities kept once the source is open'
complete -c ptop -l list-columns -d 'list the columns'
complete -c ptop -l list-sources -d 'list the sources'
complete -c ptop -l list-formats -d 'list the batch output formats'
complete -c ptop -s h -l help -d 'usage'
complete -c ptop -s V -l version -d 'version'
