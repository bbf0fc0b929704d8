#!/usr/bin/python3
# answers_ana.py DIR [-v]: the frames of answers_rec.py (DIR/ans.bin) and
# ptop_churn's line (DIR/churn.txt), per interval: rows + idle against
# ncpu x interval ("err", from the GROUP records: every live group's own
# + x* + c*), the churn tree's share against its cgroup's ("tree-cg"),
# and, where err is over 5 ms (every interval with -v), each EXIT record
# with its exit time against the two pass instants, its final T and C
# against what the answers before showed of it, and each live group that
# moved more than 2 ms (state X: a late group, live from its EXIT record).
import struct, sys, re
d = sys.argv[1]
root = int(re.search(r"root=(\d+)", open(d + "/churn.txt").read()).group(1))
raw = open(d + "/ans.bin", "rb").read()
HDR = "=HHIQQQIIII"; CPU = "=QQQQQII"
REC = "=HHHHIIIIIIIIc7s16sQQQ" + "Q" * 14 + "QQIIQ"
fr = []
o = 0
while o < len(raw):
    assert raw[o:o+4] == b"FRAM"
    ln, a0, a1, m0, m1 = struct.unpack_from("=IQQQQ", raw, o + 4)
    buf = raw[o + 40:o + 40 + ln]; o += 40 + ln
    h = struct.unpack_from(HDR, buf, 0)
    ver, size, flags, seq, tns, bns, count, ncpu, rsz, nxt = h
    off = size
    cpus = [struct.unpack_from(CPU, buf, off + i * 48) for i in range(ncpu)]
    off += ncpu * 48
    recs = []
    for i in range(count):
        f = struct.unpack_from(REC, buf, off + i * rsz)
        r = dict(kind=f[2], flags=f[3], pid=f[4], tgid=f[5], ppid=f[6], acct=f[7],
                 nthr=f[9], fold=f[10], state=f[12].decode(errors="replace"),
                 comm=f[14].split(b"\0")[0].decode(errors="replace"),
                 start=f[15], fstart=f[16], exit_ns=f[17],
                 u=f[18], s=f[19], st=f[20], xu=f[22], xs=f[23], cu=f[25], cs=f[26])
        recs.append(r)
    fr.append(dict(flags=flags, t=tns, b=bns, cpus=cpus, recs=recs, cg=(a0 + a1) / 2,
                   cgspan=(a1 - a0), m=(m0, m1)))

def T(r): return r["u"] + r["s"] + r["xu"] + r["xs"]
def C(r): return r["cu"] + r["cs"]
state = {}
tree = set()
prevA = prevS = None
idle0 = None
ms = lambda x: x / 1e6
for k, F in enumerate(fr):
    exits, lives = [], []
    old = dict(state)
    for r in F["recs"]:
        if r["kind"] != 2:
            continue
        key = (r["tgid"], r["start"])
        if r["tgid"] != root and (r["acct"] in [t for t, s in tree] + [root] or
                                   r["ppid"] in [t for t, s in tree] + [root] or key in tree):
            tree.add(key)
        if r["flags"] & 1:
            exits.append(r)
            state.pop(key, None)
        else:
            lives.append(r)
            state[key] = r
    A = sum(T(r) + C(r) for r in state.values())
    S = sum(T(r) + C(r) for key, r in state.items() if key in tree) + \
        sum(C(r) for key, r in state.items() if r["tgid"] == root)
    R = sum(T(r) for key, r in state.items() if r["tgid"] == root)
    # idle + iowait + irq + softirq: the parts ptop adds to the rows
    idle = sum(c[0] + c[1] + c[3] + c[4] for c in F["cpus"])
    if k > 0:
        P = fr[k - 1]
        dt = F["t"] - P["t"]
        err = (A - prevA) + (idle - idle0) - len(F["cpus"]) * dt
        tr = S - prevS
        cgd = F["cg"] - P["cg"] - (R - prevR)
        print(f"#{k} dt={ms(dt):.1f} err={ms(err):+.2f}ms tree={ms(tr):.1f} cg={ms(cgd):.1f} "
              f"tree-cg={ms(tr-cgd):+.1f} (cg spans {ms(P['cgspan']):.1f},{ms(F['cgspan']):.1f}) "
              f"exits={len(exits)} late={sum(1 for r in lives if r['state']=='X')}")
        if abs(err) > 5e6 or "-v" in sys.argv:
            for r in exits:
                key = (r["tgid"], r["start"])
                prev = old.get(key)
                pv = T(prev) + C(prev) if prev else None
                print(f"   EXIT {r['tgid']} {r['comm']:<12} exit-b0prev={ms(r['exit_ns']-P['b']):+8.1f} "
                      f"exit-b0={ms(r['exit_ns']-F['b']):+8.1f} T={ms(T(r)):6.1f} C={ms(C(r)):6.1f} "
                      f"prev(T+C)={'-' if pv is None else f'{ms(pv):.1f}'} "
                      f"{'prevstate=' + prev['state'] if prev else ''} fold={r['fold']}")
            for r in lives:
                key = (r["tgid"], r["start"])
                prev = old.get(key)
                dT = T(r) - (T(prev) if prev else 0)
                dC = C(r) - (C(prev) if prev else 0)
                if abs(dT) + abs(dC) > 2e6 or r["state"] == "X":
                    print(f"   live {r['tgid']} {r['comm']:<12} st={r['state']} dT={ms(dT):7.1f} dC={ms(dC):7.1f} "
                          f"{'NEW' if not prev else ''} start-b0={ms(r['start']-F['b']):+.1f}")
    prevA, prevS, prevR, idle0 = A, S, R, idle
