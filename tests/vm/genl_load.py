#!/usr/bin/python3
# Generic netlink load and latency, raw sockets, for test_kmod_genl_parallel:
#   genl_load.py lookup N    N nlctrl lookups (CTRL_CMD_GETFAMILY "nlctrl"),
#                            5 ms apart; prints each one's time in us, sorted
#   genl_load.py dump SECS   ptop_taskstats PIDS dumps (threads, full
#                            answers: a walk of every task) back to back
#                            for SECS s; prints each one's time in us, sorted
#   genl_load.py fresh       one PIDS dump on a socket that has not received
#                            anything yet (the kernel sizes its first
#                            messages by the reader's earlier recv()s): prints
#                            "cpus=N records=M messages=K" or "error=-ERRNO"
#   genl_load.py partial K   one full PIDS dump (threads); reads K recv()s
#                            of it, prints "partial", then exits without
#                            reading the rest: its socket closes mid-dump
#                            ("complete" if the dump ended within K)
import socket
import struct
import sys
import time

sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
sk.bind((0, 0))
sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)


def attr(ty, data):
    a = struct.pack("=HH", 4 + len(data), ty) + data
    return a + b"\0" * ((4 - len(a) % 4) % 4)


def talk(ty, flags, cmd, attrs, seq):
    """Send one request; read up to its ack or NLMSG_DONE; first body."""
    msg = struct.pack("=BBH", cmd, 1, 0) + attrs
    sk.send(struct.pack("=IHHII", 16 + len(msg), ty, flags, seq, 0) + msg)
    first = None
    while True:
        d = sk.recv(1 << 20)
        while len(d) >= 16:
            ln, t = struct.unpack_from("=IH", d)
            if first is None:
                first = d[16:ln]
            if t == 2 and struct.unpack_from("=i", d, 16)[0]:
                sys.exit("genl_load: error %d" % struct.unpack_from("=i", d, 16)[0])
            if t in (2, 3):		# NLMSG_ERROR (ack) or NLMSG_DONE
                return first
            d = d[(ln + 3) & ~3:]


NLM_F_REQ_ACK, NLM_F_DUMP_REQ = 0x5, 0x301
body = talk(0x10, NLM_F_REQ_ACK, 3, attr(2, b"ptop_taskstats\0"), 1)
fam, off = None, 4
while off + 4 <= len(body):			# CTRL_ATTR_FAMILY_ID (1)
    ln, ty = struct.unpack_from("=HH", body, off)
    if ty == 1:
        fam = struct.unpack_from("=H", body, off + 4)[0]
    off += (ln + 3) & ~3
out, seq = [], 1
if sys.argv[1] == "lookup":
    for _ in range(int(sys.argv[2])):
        seq += 1
        t0 = time.monotonic()
        talk(0x10, NLM_F_REQ_ACK, 3, attr(2, b"nlctrl\0"), seq)
        out.append(int((time.monotonic() - t0) * 1e6))
        time.sleep(0.005)
elif sys.argv[1] == "fresh":
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
    sk.bind((0, 0))
    msg = struct.pack("=BBH", 1, 1, 0)
    sk.send(struct.pack("=IHHII", 16 + len(msg), fam, NLM_F_DUMP_REQ, 9, 0) +
            msg)
    cpus = recs = msgs = 0
    while True:
        d = sk.recv(1 << 16)
        done = False
        while len(d) >= 16:
            ln, t = struct.unpack_from("=IH", d)
            if t == 2:
                print("error=%d" % struct.unpack_from("=i", d, 16)[0])
                sys.exit(0)
            if t == 3:
                done = True
                break
            msgs += 1
            off = 20
            while off + 4 <= ln:
                aln, aty = struct.unpack_from("=HH", d, off)
                if aty == 6:		# PTOP_TS_A_CPUS
                    cpus += (aln - 4) // 48
                elif aty == 7:		# PTOP_TS_A_RECORD
                    recs += 1
                off += (aln + 3) & ~3
            d = d[(ln + 3) & ~3:]
        if done:
            break
    print("cpus=%d records=%d messages=%d" % (cpus, recs, msgs))
    sys.exit(0)
elif sys.argv[1] == "partial":
    msg = struct.pack("=BBH", 1, 1, 0) + attr(1, struct.pack("=I", 1))
    sk.send(struct.pack("=IHHII", 16 + len(msg), fam, NLM_F_DUMP_REQ, 9, 0) +
            msg)
    done = False
    for _ in range(int(sys.argv[2])):
        d = sk.recv(1 << 16)
        while len(d) >= 16 and not done:	# a small dump may end first
            ln, t = struct.unpack_from("=IH", d)
            done = t == 3	# NLMSG_DONE
            d = d[(ln + 3) & ~3:] if ln >= 16 else b""
        if done:
            break
    print("complete" if done else "partial", flush=True)
    sys.exit(0)
else:
    end = time.monotonic() + float(sys.argv[2])
    while time.monotonic() < end:
        seq += 1
        t0 = time.monotonic()
        talk(fam, NLM_F_DUMP_REQ, 1, attr(1, struct.pack("=I", 1)), seq)
        out.append(int((time.monotonic() - t0) * 1e6))
print("\n".join(str(x) for x in sorted(out)))
