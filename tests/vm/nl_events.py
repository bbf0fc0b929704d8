#!/usr/bin/python3
# A raw generic netlink client of the ptop_taskstats family, for the VM
# tests (no libnl, so that it can run as any user and in any namespace):
#
#   nl_events.py join SECONDS     join the "events" multicast group only
#   nl_events.py listen SECONDS   join it and send PTOP_TS_CMD_LISTEN 1
#
# Prints "join ok" / "join EPERM" (or another errno name), "listen ok" /
# "listen EPERM", then one line per event received within SECONDS:
#   event TYPE pid=P tgid=T other=O comm=C
# (C up to its NUL; " tail=bad:HEX" follows when a byte after the NUL is
# not 0, or there is no NUL: the 16 bytes are the kernel's, nothing else
# may be in them)
# and "ready" on stderr once it is set up (before waiting).
import errno
import os
import select
import socket
import struct
import sys
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
CTRL_ATTR_MCAST_GROUPS = 7
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
PTOP_TS_CMD_EVENT, PTOP_TS_CMD_LISTEN = 2, 3
PTOP_TS_A_FLAGS, PTOP_TS_A_EVENT = 1, 8
EV_NAMES = {1: "fork", 2: "exec", 3: "exit", 4: "reparent"}
EV_FMT = "=6IQ16s"


def attrs(buf):
    out = {}
    while len(buf) >= 4:
        ln, ty = struct.unpack_from("=HH", buf)
        if ln < 4:
            break
        out.setdefault(ty & 0x3FFF, []).append(buf[4:ln])
        buf = buf[(ln + 3) & ~3:]
    return out


def attr(ty, data):
    a = struct.pack("=HH", 4 + len(data), ty) + data
    return a + b"\0" * ((4 - len(a) % 4) % 4)


def request(sk, ty, cmd, payload, seq):
    msg = struct.pack("=BBH", cmd, 1, 0) + payload
    sk.send(struct.pack("=IHHII", 16 + len(msg), ty, NLM_F_REQUEST | NLM_F_ACK,
                        seq, 0) + msg)


def replies(sk, seq):
    """Messages answering seq up to its ack: (type, body) list and errno."""
    got = []
    while True:
        data = sk.recv(65536)
        while len(data) >= 16:
            ln, ty, _fl, s, _pid = struct.unpack_from("=IHHII", data)
            body = data[16:ln]
            data = data[(ln + 3) & ~3:]
            if s != seq:
                continue
            if ty == NLMSG_ERROR:
                return got, -struct.unpack_from("=i", body)[0]
            got.append((ty, body))


def resolve(sk):
    request(sk, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
            attr(CTRL_ATTR_FAMILY_NAME, b"ptop_taskstats\0"), 1)
    got, err = replies(sk, 1)
    if err or not got:
        sys.exit("family ptop_taskstats: %s" % os.strerror(err or errno.ENOENT))
    a = attrs(got[0][1][4:])
    fam = struct.unpack("=H", a[CTRL_ATTR_FAMILY_ID][0][:2])[0]
    grp = None
    for g in attrs(a.get(CTRL_ATTR_MCAST_GROUPS, [b""])[0]).values():
        ga = attrs(g[0])
        if ga.get(1, [b""])[0].rstrip(b"\0") == b"events":
            grp = struct.unpack("=I", ga[2][0][:4])[0]
    return fam, grp


def main():
    mode, secs = sys.argv[1], float(sys.argv[2])
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sk.bind((0, 0))
    fam, grp = resolve(sk)
    try:
        sk.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp)
        print("join ok", flush=True)
    except OSError as e:
        print("join " + errno.errorcode.get(e.errno, str(e.errno)), flush=True)
    if mode == "listen":
        request(sk, fam, PTOP_TS_CMD_LISTEN,
                attr(PTOP_TS_A_FLAGS, struct.pack("=I", 1)), 2)
        _, err = replies(sk, 2)
        print("listen " + ("ok" if not err else errno.errorcode[err]),
              flush=True)
    print("ready", file=sys.stderr, flush=True)
    end = time.monotonic() + secs
    while True:
        left = end - time.monotonic()
        if left <= 0 or not select.select([sk], [], [], left)[0]:
            break
        try:
            data = sk.recv(1 << 20)
        except OSError as e:
            print("recv " + errno.errorcode.get(e.errno, str(e.errno)))
            continue
        while len(data) >= 16:
            ln, ty, _fl, _s, _pid = struct.unpack_from("=IHHII", data)
            body = data[16:ln]
            data = data[(ln + 3) & ~3:]
            if ty != fam or body[0] != PTOP_TS_CMD_EVENT:
                continue
            for ev in attrs(body[4:]).get(PTOP_TS_A_EVENT, []):
                t, pid, tgid, opid, _ot, _code, _ts, comm = \
                    struct.unpack_from(EV_FMT, ev)
                nul = comm.find(b"\0")
                tail = ""
                if nul < 0 or comm[nul:].strip(b"\0"):
                    tail = " tail=bad:" + comm.hex()
                print("event %s pid=%d tgid=%d other=%d comm=%s%s" %
                      (EV_NAMES.get(t, t), pid, tgid, opid,
                       comm[:nul if nul >= 0 else 16].decode(errors="replace"),
                       tail), flush=True)


main()
