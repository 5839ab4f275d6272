#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Replace the root qdisc of DEV with ddl through raw rtnetlink, bypassing
the tc plugin, to test the kernel's own validation.

usage: nlraw.py DEV MODE VALUE
  MODE limit      TCA_OPTIONS(nested){ TCA_DDL_LIMIT = VALUE }
  MODE unknown    an attribute type the kernel does not know
  MODE notnested  TCA_OPTIONS without NLA_F_NESTED
  MODE dscp       TCA_DDL_DSCP, the bytes of VALUE ("46,10")
  MODE tiers      TCA_DDL_TIERS, the u64s of VALUE ("1000,2000")
  MODE tiersraw   TCA_DDL_TIERS of VALUE zero bytes
       nlraw.py DEV opts NAME=VALUE... [/ NAME=VALUE...]...
                  TCA_OPTIONS(nested){ the named u32 attributes; rate
                  is a u64 }; "/" separates requests, sent in turn
       nlraw.py DEV class CLASSID NAME=VALUE...
                  RTM_NEWTCLASS for MAJ:MIN with the named class attributes
Prints "ack 0" or "error -ERRNO: extack message", a line per request.
"""
import socket
import struct
import sys

RTM_NEWQDISC, RTM_NEWTCLASS = 36, 40
NLM_F_REQUEST, NLM_F_ACK, NLM_F_REPLACE, NLM_F_CREATE = 1, 4, 0x100, 0x400
NLMSG_ERROR = 2
NLA_F_NESTED = 0x8000
TCA_KIND, TCA_OPTIONS = 1, 2
TCA_DDL_LIMIT = 2
QDISC_ATTRS = {"limit": 2, "jobs": 3, "mode": 4, "slice": 5, "yield": 6,
               "maxwait": 7, "bgshare": 8, "key": 9, "keyttl": 10,
               "rate": 11, "burst": 12, "target": 13, "target_time": 14,
               "interval": 15, "ecn": 16, "lead": 17, "maxperiod": 18,
               "epoch": 19, "base": 20, "shuffle": 22, "share": 25}
U64_ATTRS = {"rate", "base", "size"}
TCA_DDL_DSCP = 21
TCA_DDL_TIERS = 24
CLASS_ATTRS = {"weight": 1, "size": 2}
NETLINK_CAP_ACK, NETLINK_EXT_ACK = 10, 11
NLMSGERR_ATTR_MSG = 1
SOL_NETLINK = 270


def attr(atype, payload):
    hdr = struct.pack("HH", 4 + len(payload), atype)
    pad = b"\0" * ((4 - len(payload) % 4) % 4)
    return hdr + payload + pad


def nested(table, pairs, u64):
    nest = b""
    for pair in pairs:
        name, val = pair.split("=")
        fmt = "Q" if name in u64 else "I"
        nest += attr(table[name], struct.pack(fmt, int(val, 0)))
    return attr(TCA_OPTIONS | NLA_F_NESTED, nest)


def request(s, msgtype, ifindex, handle, parent, opts):
    """Send one request on netlink socket s; print the kernel's answer."""
    tcm = struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, handle,
                      parent, 0)
    body = tcm + attr(TCA_KIND, b"ddl\0") + opts
    flags = NLM_F_REQUEST | NLM_F_ACK
    if msgtype == RTM_NEWQDISC:
        flags |= NLM_F_CREATE | NLM_F_REPLACE
    msg = struct.pack("IHHII", 16 + len(body), msgtype, flags, 1, 0)
    s.send(msg + body)
    data = s.recv(65536)
    _, mtype, _, _, _ = struct.unpack_from("IHHII", data, 0)
    if mtype != NLMSG_ERROR:
        sys.exit("unexpected reply type %d" % mtype)
    err = struct.unpack_from("i", data, 16)[0]
    if err == 0:
        print("ack 0", flush=True)
        return
    text = ""
    off = 16 + 4 + 16          # error, then the capped request header
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from("HH", data, off)
        if alen < 4:
            break
        if atype == NLMSGERR_ATTR_MSG:
            text = data[off + 4:off + alen].split(b"\0")[0].decode()
        off += (alen + 3) & ~3
    print("error %d: %s" % (err, text), flush=True)


def main():
    dev, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    ifindex = socket.if_nametoindex(dev)
    msgtype, handle, parent = RTM_NEWQDISC, 0, 0xFFFFFFFF
    if mode == "opts":
        groups, cur = [], []
        for a in args:
            if a == "/":
                groups.append(cur)
                cur = []
            else:
                cur.append(a)
        reqs = [nested(QDISC_ATTRS, g, U64_ATTRS) for g in groups + [cur]]
    elif mode == "class":
        maj, mnr = args[0].split(":")
        handle = (int(maj, 16) << 16) | int(mnr, 16)
        parent = int(maj, 16) << 16
        msgtype = RTM_NEWTCLASS
        reqs = [nested(CLASS_ATTRS, args[1:], U64_ATTRS)]
    elif mode == "limit":
        reqs = [attr(TCA_OPTIONS | NLA_F_NESTED,
                     attr(TCA_DDL_LIMIT, struct.pack("I", int(args[0]))))]
    elif mode == "unknown":
        reqs = [attr(TCA_OPTIONS | NLA_F_NESTED,
                     attr(30, struct.pack("I", int(args[0]))))]
    elif mode == "dscp":
        ds = bytes(int(v, 0) for v in args[0].split(","))
        reqs = [attr(TCA_OPTIONS | NLA_F_NESTED, attr(TCA_DDL_DSCP, ds))]
    elif mode == "tiers":
        ts = b"".join(struct.pack("Q", int(v)) for v in args[0].split(","))
        reqs = [attr(TCA_OPTIONS | NLA_F_NESTED, attr(TCA_DDL_TIERS, ts))]
    elif mode == "tiersraw":
        reqs = [attr(TCA_OPTIONS | NLA_F_NESTED,
                     attr(TCA_DDL_TIERS, bytes(int(args[0]))))]
    elif mode == "notnested":
        reqs = [attr(TCA_OPTIONS, attr(TCA_DDL_LIMIT, struct.pack("I", 10)))]
    else:
        sys.exit("unknown mode " + mode)

    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                      socket.NETLINK_ROUTE)
    s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
    for opts in reqs:
        request(s, msgtype, ifindex, handle, parent, opts)


main()
