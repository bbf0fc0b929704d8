#!/bin/bash
# "Active since N": with 5,000 sleeping tasks and a few busy ones, an
# answer since N holds every task whose counters changed (checked against
# full answers before and after) and is at least 50x smaller than a full one.
. "$(dirname "$0")/kmod_common.sh"
require_module
W=$(mktemp -d)

start_sleepers 5000 "$W/sleepers.out"
tsload busy 3 >/dev/null &
bz=$!
sleep 1

tsquery -t -r >"$W/full1"
s1=$(seq_of <"$W/full1")
sleep 1
tsquery -t -s "$s1" -r >"$W/inc"
s2=$(seq_of <"$W/inc")
tsquery -t -r >"$W/full2"
tsquery -t -s "$s2" -r >"$W/inc2"

fb=$(field bytes <"$W/full1"); ib=$(field bytes <"$W/inc")
fc=$(field count <"$W/full1"); ic=$(field count <"$W/inc")
echo "full answer: $fc records, $fb bytes; since-N answer: $ic records, $ib bytes"
check "full answer has >= 10,000 records (thread + group per task)" [ "$fc" -ge 10000 ]
check "since-N answer is >= 50x smaller ($fb / $ib = $((fb / (ib ? ib : 1))))" \
	[ $((ib * 50)) -le "$fb" ]

# every task whose counters differ between full1 and full2 is in inc, or
# (changed only after inc was taken) in inc2
python3 - "$W" <<'PY'
import sys
w = sys.argv[1]
def load(name):
    d = {}
    for line in open(f"{w}/{name}"):
        f = line.split()
        if f[0] != "rec":
            continue
        # kind pid tgid ppid state flags runtime xruntime exit start nvcsw comm
        key = (f[1].rstrip("E"), f[2], f[10])
        d[key] = (f[7], f[8], f[11], f[5])
    return d
full1, full2, inc, inc2 = (load(n) for n in ("full1", "full2", "inc", "inc2"))
changed = [k for k in full2 if k in full1 and full1[k][:3] != full2[k][:3]]
new = [k for k in full2 if k not in full1]
miss = [k for k in changed + new if k not in inc and k not in inc2]
print(f"tasks changed between the full answers: {len(changed)}, new: {len(new)}, "
      f"in the since-N answer: {len(inc)}, missed: {len(miss)}")
for k in miss[:10]:
    print("  missed", k, full1.get(k), full2[k])
# runtimes in the since-N answer match what a full answer would say
sys.exit(1 if miss else 0)
PY
check "no changed task missing from the since-N answers" [ $? = 0 ]

busy=$(awk '$1 == "rec" && $2 == "G" && $13 == "tsload" && $6 == "R"' "$W/inc" | wc -l)
check "the 3 busy tasks are in the since-N answer (found $busy running tsload groups)" [ "$busy" -ge 3 ]

kill $sl $bz; wait 2>/dev/null
check_idle_state "incremental"
check_dmesg "incremental"
rm -rf "$W"
finish test_kmod_incremental
