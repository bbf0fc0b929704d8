#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tstime as a drop-in for GNU time (/usr/bin/time, Debian package time):
#  - every GNU directive is accepted, and the rusage ones are filled with
#    what the command really did (page faults of a 64 MiB buffer, context
#    switches of a sleep, blocks written with fsync), the constant ones
#    equal to GNU time's own;
#  - the TIME environment variable is the format when no option chose
#    another, a broken TIME is refused (nothing runs);
#  - -v has every line of GNU time -v, with the same labels and order;
#  - the SIGTERM that ends the wait for orphans is named as such (not
#    "--no-wait", which was never given);
#  - --tree has user and sys per command;
#  - help, man page and completions name the same options.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

need_bins "$T"
GNU=/usr/bin/time
[ -x $GNU ] || bad "GNU time missing (Debian package time): no comparison"

# one -f directive's value for a command
fmt() { local f=$1; shift; "$T" -q -f "$f" "$@" 2>&1 >/dev/null; }

# --- directives -------------------------------------------------------------
for d in c w F R I O W k r s Z D p X K t; do
	v=$(fmt "%$d" true)
	[[ $v =~ ^[0-9]+$ ]] && ok "%$d -> $v" || bad "%$d -> '$v' (want a count)"
done
# minor faults: touching 64 MiB is at least 16384 pages of 4 KiB
v=$(fmt '%R' python3 -c 'b = bytearray(64 << 20)')
[ "${v:-0}" -ge 16000 ] && ok "%R of a 64 MiB buffer: $v minor faults" || bad "%R of a 64 MiB buffer: '$v'"
small=$(fmt '%R' true)
[ "${small:-0}" -lt "${v:-0}" ] && ok "%R of true ($small) < of the buffer ($v)" || bad "%R true $small vs buffer $v"
# voluntary context switches: a sleep gives up its CPU
v=$(fmt '%w' sleep 0.05)
[ "${v:-0}" -ge 1 ] && ok "%w of sleep 0.05: $v voluntary switches" || bad "%w of sleep: '$v'"
# blocks written: 4 MiB with fsync (512-byte blocks), on a file system
# with a block device (writes to tmpfs count none)
disk=
for d in "$tmp" /var/tmp "$B"; do
	[ "$(stat -f -c %T "$d" 2>/dev/null)" != tmpfs ] && [ -w "$d" ] && { disk=$d; break; }
done
if [ -n "$disk" ]; then
	v=$(fmt '%O' dd if=/dev/zero of="$disk/tstime_gnu.$$" bs=1M count=4 conv=fsync status=none)
	rm -f "$disk/tstime_gnu.$$"
	[ "${v:-0}" -ge 4096 ] && ok "%O of 4 MiB written with fsync in $disk: $v blocks" ||
		bad "%O of dd in $disk ($(stat -f -c %T "$disk")): '$v'"
else
	bad "%O: no writable file system with a block device among $tmp /var/tmp $B"
fi
# the constant ones: as GNU time has them on this kernel
if [ -x $GNU ]; then
	g=$($GNU -f '%Z %W %k %r %s %X %D %p %K %t' true 2>&1)
	t=$(fmt '%Z %W %k %r %s %X %D %p %K %t' true)
	[ "$g" = "$t" ] && ok "%Z %W %k %r %s %X %D %p %K %t = GNU time's ($t)" || bad "tstime '$t', GNU '$g'"
	# both read a counter the same way: a command's own page faults, rusage
	# of the same 64 MiB program under both, within 10%
	g=$($GNU -f '%R' python3 -c 'b = bytearray(64 << 20)' 2>&1)
	t=$(fmt '%R' python3 -c 'b = bytearray(64 << 20)')
	python3 -c "import sys; g, t = $g, $t; sys.exit(not abs(g - t) <= 0.1 * g)" &&
		ok "%R tstime $t vs GNU time $g (within 10%)" || bad "%R tstime $t vs GNU time $g"
fi
"$T" -f '%y' true >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 125 ] && grep -q '%y' "$tmp/e" && ok "-f '%y': exit 125, names %y" || bad "-f %y: exit $rc, '$(cat "$tmp/e")'"

# --- TIME ---------------------------------------------------------------------
v=$(TIME='tm %x %n' "$T" -q sh -c 'exit 4' 2>&1 >/dev/null)
[ "$v" = "tm 4 1" ] && ok "TIME='tm %x %n' is the format: '$v'" || bad "TIME ignored: '$v'"
v=$(TIME='tm %x' "$T" -q -f 'f %x' sh -c 'exit 4' 2>&1 >/dev/null)
[ "$v" = "f 4" ] && ok "-f wins over TIME" || bad "-f with TIME set: '$v'"
v=$(TIME='tm %x' "$T" -q -p true 2>&1 >/dev/null | head -1)
[[ $v == real* ]] && ok "-p wins over TIME" || bad "-p with TIME set: '$v'"
v=$(TIME='tm %x' "$T" -q --json true 2>&1 >/dev/null)
python3 -c 'import json,sys; json.loads(sys.argv[1])' "$v" && ok "--json wins over TIME" || bad "--json with TIME set: '$v'"
rm -f "$tmp/ran"
TIME='%q' "$T" touch "$tmp/ran" >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 125 ] && [ ! -e "$tmp/ran" ] && grep -q 'TIME' "$tmp/e" &&
	ok "TIME='%q': exit 125, command not run: $(cat "$tmp/e")" || bad "bad TIME: exit $rc, ran=$([ -e "$tmp/ran" ] && echo yes), '$(cat "$tmp/e")'"
v=$(TIME= "$T" -q true 2>&1 >/dev/null)
[ -z "$v" ] && ok "TIME='' is an empty format (one empty line, as GNU time)" || bad "TIME='': '$v'"

# --- -v: GNU time's full report ---------------------------------------------
"$T" -q -v sh -c 'exit 3' 2>"$tmp/tv"; rc=$?
[ $rc = 3 ] && ok "-v: exit status 3 passed on" || bad "-v: exit $rc"
if [ -x $GNU ]; then
	$GNU -v sh -c 'exit 3' 2>"$tmp/gv"
	labels() { sed -n 's/^\t\([^:]*\): .*/\1/p; s/^\(Command [a-z -]*\).*/\1/p' "$1"; }
	labels "$tmp/gv" >"$tmp/gl"
	labels "$tmp/tv" | grep -Fxf "$tmp/gl" >"$tmp/tl"
	if [ -s "$tmp/gl" ] && diff -u "$tmp/gl" "$tmp/tl" >"$tmp/d"; then
		ok "-v has GNU time -v's $(wc -l <"$tmp/gl") lines, same labels, same order"
	else
		bad "-v differs from GNU time -v:"; cat "$tmp/d"
	fi
	# the numbers parse as GNU's do
	python3 - "$tmp/tv" <<'EOF' && ok "-v values parse: times as floats, counts as ints" || bad "-v values do not parse"
import sys
v = {}
for line in open(sys.argv[1]):
    if line.startswith("\t") and ": " in line:
        k, x = line.strip().split(": ", 1)
        v[k] = x
float(v["User time (seconds)"]); float(v["System time (seconds)"])
for k in ("Maximum resident set size (kbytes)", "Minor (reclaiming a frame) page faults",
          "Voluntary context switches", "Exit status", "Page size (bytes)"):
    int(v[k])
assert v["Exit status"] == "3", v["Exit status"]
assert v["Source"].split()[0] in ("kmod", "taskstats", "rusage"), v["Source"]
EOF
fi
"$T" -q -v sh -c 'kill $$' 2>"$tmp/tk"
head -1 "$tmp/tk" | grep -qx 'Command terminated by signal 15' && ok "-v of a killed command: first line as GNU time" ||
	bad "-v of a killed command: $(head -1 "$tmp/tk")"
"$T" -v --json true >/dev/null 2>"$tmp/e"; rc=$?
[ $rc = 125 ] && grep -q 'give one' "$tmp/e" && ok "-v --json: refused (exit 125)" || bad "-v --json: exit $rc"
"$T" --explain -q true 2>"$tmp/x" >/dev/null
grep -q '^tstime: source ' "$tmp/x" && grep -q '^real ' "$tmp/x" && ok "--explain: the source, then the default report" ||
	bad "--explain: $(cat "$tmp/x")"

# --- SIGTERM while waiting for orphans ------------------------------------
# the command exits at once, leaving an orphan that sleeps; tstime waits
# for it (the default) until SIGTERM says stop
"$T" sh -c 'sleep 30 & echo $! >'"$tmp/orphan"'; exit 0' >/dev/null 2>"$tmp/term" &
tp=$!
for _ in $(seq 100); do [ -s "$tmp/orphan" ] && break; sleep 0.05; done
sleep 0.2
kill -TERM $tp
wait $tp; rc=$?
kill "$(cat "$tmp/orphan")" 2>/dev/null
[ $rc = 0 ] && ok "SIGTERM after the command exited: tstime reports, exit 0 (the command's)" ||
	bad "SIGTERM while waiting for orphans: exit $rc"
if grep -q 'no-wait' "$tmp/term"; then
	bad "the SIGTERM warning speaks of --no-wait, never given: $(grep warning "$tmp/term")"
elif grep -q 'warning: .*not waited for.*SIGTERM' "$tmp/term"; then
	ok "warning names SIGTERM: $(grep warning "$tmp/term")"
else
	bad "no warning naming SIGTERM: $(cat "$tmp/term")"
fi
"$T" --no-wait sh -c 'sleep 1 & exit 0' >/dev/null 2>"$tmp/nw"
grep -q 'warning: .*(--no-wait)' "$tmp/nw" && ok "--no-wait still says --no-wait" || bad "--no-wait: $(cat "$tmp/nw")"

# --- --tree: user/sys per command -------------------------------------------
if [ -x "$WL" ]; then
	"$T" -q --tree --json -o "$tmp/tree.json" "$WL" mixed >"$tmp/wl.out"
	python3 - "$tmp/tree.json" "$tmp/wl.out" <<'EOF' && ok "--tree --json: per command user_s + sys_s = cpu_s, the rows' user and sys add up to the totals, process counts" || bad "--tree user/sys split"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["tree"] is not None, j["source"]
rows = {r["comm"]: r for r in j["tree"]}
for r in rows.values():
    assert abs(r["user_s"] + r["sys_s"] - r["cpu_s"]) <= 2e-6, r
    assert r["user_s"] >= 0 and r["sys_s"] >= 0, r
# the rows and the exit paths no record explains make the total
n = len(rows)
assert abs(sum(r["cpu_s"] for r in rows.values()) + j["exit_paths_s"] - j["cpu_s"]) <= 2e-6 * (n + 2), j
# the burners the workload counted itself ("tasks=N")
tasks = int(open(sys.argv[2]).read().split("tasks=")[1].split()[0])
assert rows["wl-burn"]["processes"] == tasks, (rows["wl-burn"], tasks)
assert rows["wl-middle"]["processes"] == 4, rows["wl-middle"]
assert sum(r["processes"] for r in rows.values()) == j["processes"], j
EOF
	"$T" -q --tree "$WL" normal 50 2>&1 >/dev/null | grep -q 'COMMAND .*PROCS .*THREADS .*USER(s) .*SYS(s) .*CPU(s)' &&
		ok "--tree text: USER(s) and SYS(s) columns" || bad "--tree text lacks USER(s)/SYS(s)"
else
	bad "$WL not built"
fi

# --- help, man page, completions agree ----------------------------------------
plain=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$top/man/tstime.1")
opts=$("$T" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ -n "$opts" ] || bad "tstime --help shows no long options"
for o in $opts; do
	grep -qF -- "$o" <<<"$plain" || bad "option $o is not in man/tstime.1"
	grep -qE -- "$o([]=[ '\"},+]|$)" "$top/completions/tstime.bash" || bad "option $o not in completions/tstime.bash"
	grep -qE -- "$o([]=[ '\"},+]|$)" "$top/completions/_tstime" || bad "option $o not in completions/_tstime"
	grep -qE -- "-l ${o#--}( |$)" "$top/completions/tstime.fish" || bad "option $o not in completions/tstime.fish"
done
for d in c w F R I O W k; do
	grep -q -- "%$d" <<<"$plain" || bad "directive %$d is not in man/tstime.1"
done
grep -q '^\.SH ENVIRONMENT' "$top/man/tstime.1" && grep -q '^\.B TIME' "$top/man/tstime.1" &&
	ok "man/tstime.1 documents TIME under ENVIRONMENT" || bad "man/tstime.1: no ENVIRONMENT / TIME"
[ $fails = 0 ] && ok "help, man page and the three completions name the same options"

finish tstime_gnu
