#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The batch formats read by real parsers: JSON Lines (python json, strict
# UTF-8), CSV (python csv), OpenMetrics (promtool check metrics from
# Debian's prometheus package, and prometheus_client's strict OpenMetrics
# parser). CSV and JSON carry the same fields; units are in the names;
# times are epoch and RFC 3339 and agree; a process name with invalid
# UTF-8 and control bytes comes out valid and escaped; OpenMetrics series
# are bounded (--top plus "other") and add up to the accounted time.
set -u
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d /tmp/ptop_formats.XXXXXX)
need_bins "$PTOP"

# a process with a name that is not UTF-8 (0xff 0xfe), a control byte,
# a quote and a backslash; it sleeps until killed
python3 - "$tmp/odd.pid" <<'PY' &
import ctypes, os, sys, time
ctypes.CDLL(None).prctl(15, b'odd\xff\xfe\x01q"\\', 0, 0, 0)   # PR_SET_NAME
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(3600)   # killed by the trap; a loaded machine can take minutes here
PY
odd=$!
trap 'kill $odd 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/odd.pid" ] && break; sleep 0.1; done
[ "$(cat /proc/$odd/comm 2>/dev/null | od -An -c | tr -d ' \n')" != "" ] ||
	bad "the odd-named process did not start"

run() { "$PTOP" -b -d 0.2 --no-config --source=procfs "$@"; }
cols=PID,USER,STATE,user,sys,ste,cuser,total,TIME,nvcsw,RSS,COMMAND

# --- JSON Lines -------------------------------------------------------------
t0=$(date +%s.%N)
run -n 2 --format=json -o $cols >"$tmp/json" || bad "json run failed"
run -n 1 --format=json -o $cols -p $odd >"$tmp/json_odd" || bad "json -p run failed"
t1=$(date +%s.%N)
python3 - "$tmp/json" "$tmp/json_odd" "$t0" "$t1" <<'PY' && ok "json: strict UTF-8, schema, units in names, times agree, sum row, odd name escaped" || bad "json"
import datetime, json, sys
t0, t1 = float(sys.argv[3]), float(sys.argv[4])
raw = open(sys.argv[1], "rb").read()
lines = raw.decode("utf-8", "strict").splitlines()   # invalid UTF-8 raises
assert len(lines) == 2, lines
for l in lines:
    d = json.loads(l)
    assert d["schema"] == 1
    for k in ("time_epoch_s", "time_rfc3339", "time_monotonic_s", "interval_s",
              "ncpu", "source", "scope", "exact", "inexact", "within", "off_pct", "tolerance_pct",
              "snapshot_ms", "skew_pct", "lost", "accounted_pct", "capacity_pct",
              "idle_pct", "iowait_pct", "steal_pct", "steal_in_tasks", "irq_pct",
              "irq_in_tasks", "exited", "clamped_pct", "unfolded_pct",
              "exit_paths_pct", "rows", "sum"):
        assert k in d, k
    assert isinstance(d["exact"], bool) and isinstance(d["ncpu"], int)
    # the verdict's reasons: a list of strings, empty exactly when exact
    assert isinstance(d["inexact"], list) and all(isinstance(x, str) for x in d["inexact"])
    # exact: no reason and a bound no wider than 1%; "within": no reason, wider
    assert d["exact"] == (d["inexact"] == [] and d["within"] is None), d
    assert d["within"] is None or (d["inexact"] == [] and isinstance(d["within"], str)), d
    assert d["scope"] in ("machine", "pid_namespace"), d
    # the wall clock of the interval's end: within the run, and both stamps agree
    assert t0 - 1 <= d["time_epoch_s"] <= t1 + 1, (t0, d["time_epoch_s"], t1)
    r3339 = datetime.datetime.fromisoformat(d["time_rfc3339"].replace("Z", "+00:00"))
    assert r3339.tzinfo is not None
    assert abs(r3339.timestamp() - d["time_epoch_s"]) < 1e-5, (r3339, d["time_epoch_s"])
    # steal and irq: a share when kept apart, else null and *_in_tasks
    for p in ("steal", "irq"):
        assert (d[p + "_pct"] is None) == d[p + "_in_tasks"], d
    keys = {"kind", "PID", "USER", "STATE", "user_pct", "sys_pct", "ste_pct",
            "cuser_pct", "total_pct", "TIME_s", "nvcsw_per_s", "RSS_kib", "COMMAND"}
    for r in d["rows"]:
        assert set(r) == keys, set(r) ^ keys
        assert r["kind"] == "process"
        assert isinstance(r["PID"], int) and isinstance(r["TIME_s"], float)
        assert r["ste_pct"] is None          # procfs cannot measure steal per task
    s = d["sum"]
    assert set(s) == keys and s["kind"] == "sum"
    assert s["PID"] is None and s["COMMAND"] is None and s["TIME_s"] is None
    tot = sum(r["total_pct"] for r in d["rows"])
    assert abs(tot - s["total_pct"]) < 0.0001 * len(d["rows"]) + 0.001, (tot, s["total_pct"])
d = json.loads(open(sys.argv[2], "rb").read().decode("utf-8", "strict"))
names = [r["COMMAND"] for r in d["rows"]]
assert names == ['odd\\xff\\xfe\x01q"\\'], names
PY

# --- CSV: the same fields as JSON --------------------------------------------
run -n 2 --format=csv -o $cols >"$tmp/csv" || bad "csv run failed"
run -n 1 --format=csv -o $cols -p $odd >"$tmp/csv_odd" || bad "csv -p run failed"
python3 - "$tmp/csv" "$tmp/json" "$tmp/csv_odd" <<'PY' && ok "csv: same fields as json, numeric TIME and PID, sum row kind=sum, odd name escaped" || bad "csv"
import csv, io, json, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
rows = list(csv.reader(io.StringIO(text, newline="")))
hdr = rows[0]
j = json.loads(open(sys.argv[2]).readline())
want = [k for k in j if k not in ("rows", "sum")] + list(j["rows"][0])
assert hdr == want, (hdr, want)
body = rows[1:]
assert all(len(r) == len(hdr) for r in body)
col = {n: i for i, n in enumerate(hdr)}
sums = [r for r in body if r[col["kind"]] == "sum"]
assert len(sums) == 2, len(sums)
for r in body:
    if r[col["kind"]] == "sum":
        assert r[col["PID"]] == "" and r[col["COMMAND"]] == ""
        float(r[col["total_pct"]])
        continue
    assert r[col["kind"]] == "process"
    int(r[col["PID"]]); float(r[col["TIME_s"]]); float(r[col["total_pct"]])
    assert r[col["ste_pct"]] == ""          # unmeasured: empty, not 0
    assert r[col["exact"]] in ("true", "false")
    assert (r[col["exact"]] == "true") == (r[col["inexact"]] == "" and r[col["within"]] == "")
    float(r[col["time_epoch_s"]])
    assert r[col["time_rfc3339"]].endswith("Z")
odd = list(csv.reader(io.StringIO(open(sys.argv[3], "rb").read().decode("utf-8", "strict"), newline="")))
c = odd[0].index("COMMAND")
names = [r[c] for r in odd[1:] if r[odd[0].index("kind")] == "process"]
assert names == ['odd\\xff\\xfe\\x01q"\\'], names
PY

# -b --tree in the machine formats: a depth field, the same in both
run -n 1 --format=json --tree -o PID,PPID,COMMAND >"$tmp/tree.json" &&
run -n 1 --format=csv --tree -o PID,PPID,COMMAND >"$tmp/tree.csv" &&
python3 - "$tmp/tree.json" "$tmp/tree.csv" <<'PY' && ok "--tree: depth and tree_parent in json and csv, each row under its parent" || bad "--tree json/csv"
import csv, json, sys
d = json.loads(open(sys.argv[1]).read())
stack, nested, pids = [], 0, {r["PID"] for r in d["rows"]}
for r in d["rows"]:
    assert r["depth"] <= len(stack)
    stack = stack[:r["depth"]]
    if r["depth"]:
        # under its parent, or (an orphan) its accounting parent
        assert r["tree_parent"] == stack[-1], r
        nested += r["tree_parent"] == r["PPID"]
    else:
        assert r["tree_parent"] is None, r
    stack.append(r["PID"])
assert nested
assert d["sum"]["depth"] is None and d["sum"]["tree_parent"] is None
hdr = next(csv.reader(open(sys.argv[2])))
k = hdr.index("kind")
assert hdr[k + 1:k + 3] == ["depth", "tree_parent"], hdr
PY

# --- OpenMetrics ---------------------------------------------------------------
run -n 1 --format=openmetrics --top 5 -p $odd,1 >"$tmp/om_odd" || bad "openmetrics -p run failed"
run -n 1 --format=openmetrics --top 5 >"$tmp/om" || bad "openmetrics run failed"
run -n 1 --format=openmetrics >"$tmp/om_default" || bad "openmetrics default run failed"
[ "$(tail -n1 "$tmp/om")" = "# EOF" ] && ok "openmetrics: ends in # EOF" || bad "openmetrics: last line '$(tail -n1 "$tmp/om")'"

# promtool: on PATH, or unpacked from Debian's prometheus package (not
# installed: its postinst would start a Prometheus server)
promtool=$(command -v promtool || true)
if [ -z "$promtool" ]; then
	pt=$B/tools/prometheus
	if [ ! -x "$pt/usr/bin/promtool" ]; then
		mkdir -p "$pt"
		( cd "$pt" && apt-get download prometheus >/dev/null 2>&1 &&
		  dpkg-deb --fsys-tarfile prometheus_*.deb | tar -x ./usr/bin/promtool &&
		  rm -f prometheus_*.deb ) || echo "  note: promtool could not be fetched with apt-get download prometheus"
	fi
	[ -x "$pt/usr/bin/promtool" ] && promtool=$pt/usr/bin/promtool
fi
if [ -n "$promtool" ]; then
	for f in om om_odd om_default; do
		o=$("$promtool" check metrics <"$tmp/$f" 2>&1)
		[ $? = 0 ] && [ -z "$o" ] && ok "promtool check metrics ($f): clean" ||
			bad "promtool check metrics ($f): $o"
	done
fi

# prometheus_client's OpenMetrics parser is strict (names, units, # EOF);
# Debian's python3-prometheus-client lives in the system python
om_py=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && { om_py=$p; break; }
done
if [ -z "$om_py" ]; then
	bad "no python with prometheus_client (Debian: python3-prometheus-client)"
elif [ -z "$promtool" ]; then
	echo "  note: promtool unavailable: prometheus_client's strict parser only"
fi
[ -n "$om_py" ] && "$om_py" - "$tmp/om" "$tmp/om_odd" "$tmp/om_default" <<'PY' && ok "openmetrics: strict parse, top 5 + other, modes add up to accounted, ratio, odd comm label escaped" || bad "openmetrics"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse

def load(path):
    text = open(path, "rb").read().decode("utf-8", "strict")
    fams = {f.name: f for f in parse(text)}
    for f in fams.values():
        assert f.type == "gauge", (f.name, f.type)
    one = lambda n: fams[n].samples[0].value
    return fams, one

fams, one = load(sys.argv[1])
procs = fams["ptop_process_cpu_seconds"].samples
pids = {s.labels["pid"] for s in procs if "pid" in s.labels}
assert 1 <= len(pids) <= 5, pids
other = [s for s in procs if s.labels.get("comm") == "other"]
assert other and all("pid" not in s.labels for s in other)
assert one("ptop_other_processes") >= 1
for s in procs:
    if "pid" in s.labels:
        assert set(s.labels) == {"pid", "comm", "user", "mode"}, s.labels
    assert s.labels["mode"] != "steal", s      # procfs cannot measure it: left out
    assert s.value >= 0
system = sum(s.value for s in fams["ptop_system_cpu_seconds"].samples)
total = sum(s.value for s in procs)
acc, cap = one("ptop_accounted_cpu_seconds"), one("ptop_capacity_cpu_seconds")
# every series is rounded to the ns
assert abs(total + system - acc) < 1e-6 * (len(procs) + 8), (total, system, acc)
assert abs(one("ptop_accounted_ratio") - acc / cap) < 1e-6
assert abs(cap - one("ptop_cpus") * one("ptop_interval_seconds")) < 1e-6
assert one("ptop_exact") in (0, 1)
reasons = {s.labels["reason"]: s.value for s in fams["ptop_inexact"].samples}
assert set(reasons) == {"first", "lost", "clamped", "unfolded", "slow", "exit_paths", "off", "late"}, reasons
assert one("ptop_within") in (0, 1) and one("ptop_pid_namespace_only") in (0, 1)
assert (one("ptop_exact") == 1) == (sum(reasons.values()) == 0 and one("ptop_within") == 0
                                    and one("ptop_pid_namespace_only") == 0), reasons

fams, one = load(sys.argv[3])
pids = {s.labels["pid"] for s in fams["ptop_process_cpu_seconds"].samples if "pid" in s.labels}
assert 1 <= len(pids) <= 10, len(pids)         # bounded by default

fams, one = load(sys.argv[2])
comms = {s.labels["comm"] for s in fams["ptop_process_cpu_seconds"].samples if "pid" in s.labels}
assert 'odd\\xff\\xfe\\x01q"\\' in comms, comms
PY

# the format names come from one table, one entry per ui/enc_NAME.c (a
# new format is that file): --list-formats (text first), and the error
# text and --help in the same order
files=$(cd "$top/ui" && ls enc_*.c | sed 's/^enc_//; s/\.c$//' | sort | paste -sd' ')
names=$("$PTOP" --list-formats | awk '{print $1}' | paste -sd' ')
sorted=$(echo "$names" | tr ' ' '\n' | sort | paste -sd' ')
if [ -n "$files" ] && [ "$sorted" = "$files" ] && [ "${names%% *}" = text ]; then
	ok "--list-formats: $names (one per ui/enc_*.c, text first)"
else bad "--list-formats: '$names', ui/enc_*.c: '$files'"; fi
list=$(echo "$names" | sed 's/ /, /g')
e=$("$PTOP" -b -n 1 --format=xml 2>&1 >/dev/null)
[ "$e" = "ptop: unknown format 'xml' ($list)" ] && ok "error text: $e" || bad "error text: $e"
"$PTOP" --help | grep -qF -- "--format=FMT       batch output: $list" && ok "--help lists the formats: $list" ||
	bad "--help: $("$PTOP" --help | grep -- --format)"

finish formats
