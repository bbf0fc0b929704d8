#!/usr/bin/python3
# balance_ana.py DIR: per interval of the answers in DIR/ans.bin, the
# answer's error (answers_ana.py) beside each CPU's own balance from the
# "diag g=" lines of DIR/dmesg.txt (a module built with balance.patch,
# loaded with diag_balance=1): kt = its ktime between the two instants,
# sc-kt its sched_clock against that, busy the runtime growth of what it
# ran, idst its idle task's runs, idle the idle count, book = busy + idst
# - sc (the probe's own books), idst-idle the idle task outside idle.
# Run from the top of the tree. See ptop_raw.sh.
import re, subprocess, sys
d = sys.argv[1]
g = {}
for l in open(d + "/dmesg.txt"):
    m = re.search(r"diag g=(\d+) c=(\d+) ok=(\d) T0=(\d+) kt=(\d+) sc=(\d+) busy=(\d+) idst=(\d+) idle=(\d+) iow=(\d+) irq=(\d+) sirq=(\d+) st=(\d+) sw=(\d+)", l)
    if not m: continue
    v = [int(x) for x in m.groups()]
    g.setdefault(v[0], {})[v[1]] = dict(ok=v[2], T0=v[3], kt=v[4], sc=v[5], busy=v[6], idst=v[7], idle=v[8] + v[9], sw=v[13])
bytime = {next(iter(c.values()))["T0"]: k for k, c in g.items()}
# answers' tns
import struct
raw = open(d + "/ans.bin", "rb").read()
o = 0; ts = []
while o < len(raw):
    ln, = struct.unpack_from("=I", raw, o + 4)
    buf = raw[o + 40:o + 40 + ln]; o += 40 + ln
    ts.append(struct.unpack_from("=HHIQQQ", buf, 0)[4])
ana = subprocess.run(["python3", "tests/vm/diag/answers_ana.py", d], capture_output=True, text=True).stdout
errs = dict((int(m.group(1)), (float(m.group(2)), m.group(0))) for m in re.finditer(r"#(\d+) dt=\S+ err=([-+\d.]+)ms.*", ana))
ms = lambda x: x / 1e6
for k in range(1, len(ts)):
    a, b = bytime.get(ts[k - 1]), bytime.get(ts[k])
    e = errs.get(k, (None, ""))[0]
    if a is None or b is None:
        print(f"#{k} no diag"); continue
    parts = []
    tot = 0
    for c in sorted(g[b]):
        p, q = g[a].get(c), g[b][c]
        if not p or not p["ok"] or not q["ok"]:
            parts.append(f"c{c}:?"); continue
        dk, ds = q["kt"] - p["kt"], q["sc"] - p["sc"]
        db, di, dI = q["busy"] - p["busy"], q["idst"] - p["idst"], q["idle"] - p["idle"]
        err = db + dI - dk
        tot += err
        parts.append(f"c{c}: kt={ms(dk):.1f} sc-kt={ms(ds-dk):+.2f} busy={ms(db):.1f} idst={ms(di):.1f} idle={ms(dI):.1f} book={ms(db+di-ds):+.2f} idst-idle={ms(di-dI):+.2f} cpu_err={ms(err):+.2f}")
    print(f"#{k} gens {a}->{b} ans_err={e:+.2f} cpu_err_sum={ms(tot):+.2f} | " + " | ".join(parts))
