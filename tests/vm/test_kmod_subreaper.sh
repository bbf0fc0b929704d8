#!/bin/bash
# Exits under a child subreaper, which any user can set up, must cost
# what the group has children, not what the machine has processes or
# ancestors:
#  - a group that died with a live child still under tracking used to
#    walk its whole ancestor chain looking for the reaper at every death
#    under a subreaper, children or not (the kernel looks only when there
#    are children to move);
#  - a subreaper that took in an orphan it did not start ("adopts") had
#    each of its exits, with an events listener, walk every process with
#    preemption off to find its real children.
# tests/helpers/tssubreaper makes both with a chain of DEPTH processes;
# the exit probe (ptop_ts_probe_exit) is timed by the function_graph
# tracer, per process name, and judged as ratios within the same run
# (a loaded host stretches both sides): a leaf DEPTH ancestors below the
# subreaper (sr-dl) against one just below it (sr-tl), S's exit against
# A's. The REPARENT
# events of the orphan G (to S, then to the top) must stay right.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)
DEPTH=${DEPTH:-2000}
N=${N:-30}
uptime_s() { awk '{ print $1 }' /proc/uptime; }
tracefs_mount || { bad "tracefs"; finish test_kmod_subreaper; }

graph_trace ptop_ts_probe_exit || bad "the function_graph tracer on the module's probe"
echo funcgraph-proc >$T/trace_options
echo >$T/trace
echo 1 >$T/tracing_on
# the chain and the leaves; then, with a listener (the chain's thousands
# of events would fill its socket), the subreapers
mkfifo "$W/go"
echo "tssubreaper $DEPTH $N from $(uptime_s) s"
tssubreaper "$DEPTH" "$N" <"$W/go" >"$W/out" &
top=$!
exec 3>"$W/go"
wait_line "$W/out" '^ready' $((300 * PATIENCE)) || bad "the chain and its leaves made"
echo "chain and leaves done at $(uptime_s) s"
python3 "$PTOP_REPO/tests/vm/nl_events.py" listen $((300 * PATIENCE)) >"$W/ev" 2>"$W/ready" &
lp=$!
wait_ready "$W/ready" $lp 60
check "listener set up" grep -q 'listen ok' "$W/ev"
f0=$(state events_failed)
echo go >&3
exec 3>&-
wait $top
st=$?
echo 0 >$T/tracing_on
check "tssubreaper $DEPTH $N ran ($st)" [ "$st" = 0 ] && grep -q "done $N" "$W/out"
echo "tssubreaper done at $(uptime_s) s"
# "CPU) comm-pid | dur us | ptop_ts_probe_exit();": durations by comm
grep ptop_ts_probe_exit $T/trace |
	sed -n 's/^ *[0-9]*) *\(sr-[a-z]*\)-[0-9]* *|[^0-9]*\([0-9][0-9.]*\) us .*/\1 \2/p' >"$W/d"
echo nofuncgraph-proc >$T/trace_options
graph_trace_off
# median NAME: the median probe duration (us) of NAME's exits
median() {
	awk -v n="$1" '$1 == n { print $2 }' "$W/d" | sort -n |
		awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "" }'
}
count() { awk -v n="$1" '$1 == n' "$W/d" | wc -l; }
leafd=$(median sr-dl); leaft=$(median sr-tl)
s=$(median sr-s); a=$(median sr-a)
echo "exit probe medians (us): leaf at depth $DEPTH $leafd, at depth 1 $leaft;" \
	"adopting subreaper S $s, its child A $a"
for c in sr-dl sr-tl sr-s sr-a; do
	check "$N exits of $c traced ($(count $c))" [ "$(count $c)" -ge "$N" ]
done
# within: A B: A <= 3 B (B at least 1 us)
within() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a <= 3 * (b > 1 ? b : 1)) }'; }
check "a death $DEPTH ancestors below the subreaper within 3x of one below it ($leafd vs $leaft us)" \
	within "$leafd" "$leaft"
check "the adopting subreaper's exit within 3x of its child's ($s vs $a us)" \
	within "$s" "$a"

# each G: reparented to its S, then, when S exits, to the top
kill $lp; wait $lp 2>/dev/null
nok=0
for sp in $(awk '$1 == "s" { print $2 }' "$W/out"); do
	g=$(grep "reparent .*other=$sp comm=sr-g" "$W/ev" | sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
	[ -n "$g" ] && grep -q "reparent pid=$g .*other=$top comm=sr-g" "$W/ev" &&
		nok=$((nok + 1))
done
echo "events failed from the subreapers to the chain's end: $(( $(state events_failed) - f0 ))"
check "$nok of $N orphans G reported reparented to S, then to the top" [ "$nok" = "$N" ]
check_idle_state "subreaper"
check_dmesg "subreaper"
rm -rf "$W"
finish test_kmod_subreaper
