#!/usr/bin/env bash
# A pid namespace is not the machine: in `unshare -p -f --mount-proc`
# (what `docker exec` gives) the rows are the namespace's tasks while idle
# and the CPUs are the machine's. ptop must say in one line what it sums
# (every headline: "tasks of this pid namespace only: machine total not
# accounted"), never claim an `off` (or exact, or within) it cannot know,
# print nothing on stderr, and say once (the # line) that taskstats cannot
# run there; --source=taskstats fails in one line saying why. JSON says
# scope pid_namespace. Outside, and in `unshare -p -f` without its own
# /proc (every task in sight), the scope is the machine.
# Exit 77 (skip) without root or unshare.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

need_root SKIP "unshare -p"
command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 77; }
# what `unshare -p -f --mount-proc` gives, also where / is not a mount
# point (tests/helpers/ns_run)
NS=("$(cd "$(dirname "$0")/../helpers" && pwd)/ns_run" -p --)
"${NS[@]}" true 2>/dev/null ||
	{ echo "FAIL: cannot make a pid namespace with its own /proc here"; exit 1; }
[ -x "$PTOP" ] || make -s B="$B" "$PTOP" >/dev/null ||
	{ echo "FAIL: cannot build $PTOP"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp
SAYS='tasks of this pid namespace only: machine total not accounted'

# text: every headline says what it sums, none an off, exact or within
"${NS[@]}" "$PTOP" -b -d 0.3 -n 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
heads=$(grep -c '^ptop .* accounted ' "$tmp/out")
says=$(grep -c "^ptop .* accounted [0-9.]*% of [0-9.]*%  $SAYS" "$tmp/out")
if [ $rc = 0 ] && [ "$heads" = 2 ] && [ "$says" = 2 ]; then
	ok "unshare: both headlines: $SAYS"
else
	bad "unshare: rc $rc, $heads headlines, $says say it: $(grep '^ptop' "$tmp/out")"
fi
grep -E '^ptop .*(off [-+]|  exact$|  within )' "$tmp/out" &&
	bad "unshare: a headline claims what it cannot know" ||
	ok "unshare: no off, exact or within claimed"
[ ! -s "$tmp/err" ] && ok "unshare: nothing on stderr" ||
	bad "unshare: stderr: $(cat "$tmp/err")"
n=$(grep -c 'no taskstats here' "$tmp/out")
[ "$n" = 1 ] && grep -q '^# source procfs: .*pid namespace' "$tmp/out" &&
	ok "unshare: the # line says it once: $(grep -o 'pid namespace.*' "$tmp/out" | head -1)" ||
	bad "unshare: why no taskstats said $n times: $(grep '^#' "$tmp/out")"

# the stock taskstats source asked for: one line, why
"${NS[@]}" "$PTOP" -b -d 0.3 -n 1 --source=taskstats >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'pid namespace' "$tmp/err" &&
	ok "unshare --source=taskstats: $(cat "$tmp/err")" ||
	bad "unshare --source=taskstats: rc $rc: $(cat "$tmp/err")"
"${NS[@]}" "$PTOP" --list-sources >"$tmp/list" 2>&1
grep -q '^taskstats_nl .*no .*exit listener serves the initial one' "$tmp/list" &&
	ok "unshare --list-sources: the long reason" ||
	bad "unshare --list-sources: $(cat "$tmp/list")"

# json: scope pid_namespace, never exact, within or off
scope_of() {	# command...: the scopes and reasons of 2 intervals
	"$@" -b -d 0.3 -n 2 --format=json -p 1 -o PID 2>/dev/null |
	python3 -c '
import json, sys
for l in sys.stdin:
    d = json.loads(l)
    assert not d["exact"] and (d["scope"] != "pid_namespace" or d["within"] is None), d
    print(d["scope"], "off" if any(r.startswith("off") for r in d["inexact"]) else "-")
'
}
s=$(scope_of "${NS[@]}" "$PTOP" | sort -u | paste -sd' ')
[ "$s" = "pid_namespace -" ] && ok "unshare json: scope pid_namespace, no off" ||
	bad "unshare json: '$s'"
s=$(scope_of "$PTOP" --source=procfs | awk '{print $1}' | sort -u)
[ "$s" = machine ] && ok "outside: scope machine" || bad "outside: '$s'"
s=$(scope_of unshare -p -f "$PTOP" | awk '{print $1}' | sort -u)
[ "$s" = machine ] && ok "unshare -p without its own /proc: scope machine" ||
	bad "unshare -p, the host's /proc: '$s'"

[ $fail = 0 ] && echo "PASS: pidns" || echo "FAIL: pidns"
exit $fail
