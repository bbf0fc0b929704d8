#!/usr/bin/env bash
# tstime called as "time" (a link named time) behaves as GNU time does:
# its report formats byte for byte (numbers matched by shape), its options,
# messages and exit statuses; with tstime's numbers, so never less than
# GNU time's own for the same run (GNU time inside it).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
T=$(realpath "$B/tstime")
WL=$(realpath "$B/tests/helpers/ptop_workload")

need_bins "$T"
unset TIME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$T" "$tmp/bin/time"
TM=$tmp/bin/time

# run NAME ARGS...: report to $tmp/NAME (via -o where given, else stderr)
run() {
	local name=$1
	shift
	"$TM" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }
# matches FILE ERE...: the file's lines, one ERE each, in order, no more
matches() {
	local f=$1 i=0 line
	shift
	local -a want=("$@")
	while IFS= read -r line; do
		[ $i -lt ${#want[@]} ] && [[ $line =~ ^${want[$i]}$ ]] ||
			{ echo "  line $((i + 1)): '$line' !~ '${want[$i]:-<no more lines>}'"; return 1; }
		i=$((i + 1))
	done <"$f"
	[ $i = ${#want[@]} ] || { echo "  $i lines, want ${#want[@]}"; return 1; }
}
N='[0-9]+'
S='[0-9]+\.[0-9]{2}'
L1="${S}user ${S}system $N:[0-9]{2}\.[0-9]{2}elapsed ${N}%CPU \(${N}avgtext\+${N}avgdata ${N}maxresident\)k"
L2="${N}inputs\+${N}outputs \(${N}major\+${N}minor\)pagefaults ${N}swaps"

run def true
matches "$tmp/def.err" "$L1" "$L2" && [ "$(rc def)" = 0 ] && ok "default: GNU's two lines" || bad "default report: $(cat "$tmp/def.err")"
run deff sh -c 'exit 3'
matches "$tmp/deff.err" "Command exited with non-zero status 3" "$L1" "$L2" && [ "$(rc deff)" = 3 ] &&
	ok "default, failing: the status line first, exit 3" || bad "failing command: $(cat "$tmp/deff.err")"
run q -q sh -c 'exit 3'
matches "$tmp/q.err" "$L1" "$L2" && [ "$(rc q)" = 3 ] && ok "-q: no status line" || bad "-q: $(cat "$tmp/q.err")"
run p -p sh -c 'exit 3'
matches "$tmp/p.err" "real $S" "user $S" "sys $S" && [ "$(rc p)" = 3 ] &&
	ok "-p: real/user/sys, 2 decimals, no status line" || bad "-p: $(cat "$tmp/p.err")"

# -v wins over -f and -p, and the command runs
V=(Command\ being\ timed:\ \"touch\ .*\" "User time \(seconds\): $S" "System time \(seconds\): $S"
	"Percent of CPU this job got: $N%" "Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): $N:[0-9]{2}\.[0-9]{2}"
	"Average shared text size \(kbytes\): $N" "Average unshared data size \(kbytes\): $N"
	"Average stack size \(kbytes\): $N" "Average total size \(kbytes\): $N"
	"Maximum resident set size \(kbytes\): $N" "Average resident set size \(kbytes\): $N"
	"Major \(requiring I/O\) page faults: $N" "Minor \(reclaiming a frame\) page faults: $N"
	"Voluntary context switches: $N" "Involuntary context switches: $N" "Swaps: $N"
	"File system inputs: $N" "File system outputs: $N" "Socket messages sent: $N"
	"Socket messages received: $N" "Signals delivered: $N" "Page size \(bytes\): $N" "Exit status: 0")
V=("${V[@]/#/$'\t'}")
for o in "-v -f %e" "-f %e -v" "-p -v" "-v -p"; do
	rm -f "$tmp/ran"
	run v $o touch "$tmp/ran"
	[ -e "$tmp/ran" ] && [ "$(rc v)" = 0 ] && matches "$tmp/v.err" "${V[@]}" &&
		ok "$o: the command runs, -v's report" || bad "$o: rc $(rc v): $(head -3 "$tmp/v.err")"
done

run bs -f 'abc\' true
[ "$(cat "$tmp/bs.err")" = 'abc?\' ] && [ "$(rc bs)" = 0 ] && ok "-f 'abc\\': runs, prints abc?\\" ||
	bad "trailing backslash: rc $(rc bs): $(cat "$tmp/bs.err")"
run unk -f '%q|\q|%%|\\|\t|%' true
[ "$(cat "$tmp/unk.err")" = $'?q|?\\q|%|\\|\t|?' ] && [ "$(rc unk)" = 0 ] &&
	ok "unknown directive and escape printed literally, as GNU" || bad "unknown directive: rc $(rc unk): $(cat -A "$tmp/unk.err")"
run num -f '%e %U %S %P %E' sh -c 'exit 2'
matches "$tmp/num.err" "Command exited with non-zero status 2" "$S $S $S ${N}% $N:[0-9]{2}\.[0-9]{2}" &&
	ok "-f with a failing command: the status line; %e %U %S 2 decimals, %P integer" ||
	bad "-f %e %U %S %P: $(cat "$tmp/num.err")"
run segv -f '%x %Tt %Tx|%Ts %Tn %To|%T' sh -c 'kill -SEGV $$'
matches "$tmp/segv.err" "Command terminated by signal 11" "0 signalled \|SEGV 11 \|T=missing letter" &&
	[ "$(rc segv)" = 139 ] && ok "after SIGSEGV: %x 0, %T* say signalled, exit 139" ||
	bad "SIGSEGV: rc $(rc segv): $(cat "$tmp/segv.err")"
run ex -q -f '%x %Tt %Tx|%Ts %Tn %To' sh -c 'exit 4'
[ "$(cat "$tmp/ex.err")" = "4 normal 4|  " ] && [ "$(rc ex)" = 4 ] && ok "-q, exit 4: %Tx 4, %To empty" ||
	bad "exit 4: $(cat -A "$tmp/ex.err")"
run ok0 -f '%Tt %Tx %To %Tq' true
[ "$(cat "$tmp/ok0.err")" = "normal 0 ok T?=unknown" ] && ok "exit 0: %To ok" || bad "exit 0: $(cat "$tmp/ok0.err")"
TIME='env %x' run env sh -c 'exit 5'
matches "$tmp/env.err" "Command exited with non-zero status 5" "env 5" && ok "\$TIME is the format" ||
	bad "\$TIME: $(cat "$tmp/env.err")"
TIME='env %x' run envf -f 'f %x' true
[ "$(cat "$tmp/envf.err")" = "f 0" ] && ok "-f over \$TIME" || bad "-f over \$TIME: $(cat "$tmp/envf.err")"
run o -o "$tmp/o.txt" -f %x true
[ "$(cat "$tmp/o.txt")" = 0 ] && [ ! -s "$tmp/o.err" ] && ok "-o FILE" || bad "-o: $(cat "$tmp/o.txt" "$tmp/o.err")"
run a -a -o "$tmp/o.txt" -f %x sh -c 'exit 1'
[ "$(cat "$tmp/o.txt")" = $'0\nCommand exited with non-zero status 1\n1' ] && ok "-a -o FILE appends" ||
	bad "-a: $(cat "$tmp/o.txt")"

# errors: GNU's messages and statuses
run bad -x true
[ "$(rc bad)" = 125 ] && grep -q "^Try '.*time --help' for more information.$" "$tmp/bad.err" &&
	ok "bad option: 125, Try '... --help'" || bad "bad option: rc $(rc bad): $(cat "$tmp/bad.err")"
run none
[ "$(rc none)" = 125 ] && grep -q "missing program to run" "$tmp/none.err" && ok "no command: 125" ||
	bad "no command: rc $(rc none): $(cat "$tmp/none.err")"
run nf -f %x no-such-command-tstime
[ "$(rc nf)" = 127 ] && grep -q "cannot run no-such-command-tstime" "$tmp/nf.err" &&
	[ "$(tail -1 "$tmp/nf.err")" = 127 ] && ok "command not found: 127" || bad "not found: rc $(rc nf): $(cat "$tmp/nf.err")"
run help --help
[ "$(rc help)" = 0 ] && grep -q '^Usage: ' "$tmp/help.out" && ok "--help on stdout" || bad "--help"
run ver --version
[ "$(rc ver)" = 0 ] && [ -s "$tmp/ver.out" ] && ok "--version" || bad "--version"

# tstime's numbers: the whole tree, never less than GNU time's (inside it)
if [ -x /usr/bin/time ] && [ -x "$WL" ]; then
	run nest -f '%U %S' /usr/bin/time -o "$tmp/gnu.txt" -f '%U %S' \
		sh -c "$WL normal 100 >/dev/null; $WL selfreap 20 10 >/dev/null"
	python3 - "$tmp/nest.err" "$tmp/gnu.txt" <<'PY' && ok "total >= GNU time's, and has the self-reaped children" || bad "numbers"
import sys
t = sum(map(float, open(sys.argv[1]).read().split()))
g = sum(map(float, open(sys.argv[2]).read().split()))
print(f"  as time: {t:.2f} s; GNU time inside it: {g:.2f} s")
# 20 x 10 ms self-reaped: GNU misses them; each side rounds down twice
sys.exit(0 if t >= g + 0.1 else 1)
PY
else
	bad "/usr/bin/time or $WL missing"
fi
exit $fail
