#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Measure what a device transmits.

usage: txrate.py DEV SECS [WAIT_BYTES]      (run inside the device's netns)
       txrate.py -q HANDLE DEV SECS
Waits until DEV has sent WAIT_BYTES more bytes (default 0: no wait), then
counts its tx_bytes and tx_packets over SECS seconds.  Prints JSON:
{"secs": s, "bytes": b, "packets": p, "bps": bits per second}.

With -q, counts the bytes the qdisc HANDLE of DEV sent instead: qdisc
bytes are qdisc_pkt_len(), the length the shaper paces by.  A device counts
a GSO packet's headers once, the qdisc once per segment, as on the wire.
The counters come from an RTM_GETQDISC dump on a netlink socket, timed
around the dump: milliseconds even where starting tc takes seconds (the
debug guest), which would blur the window's ends.
"""
import json
import socket
import struct
import sys
import time

RTM_GETQDISC, RTM_GETTCLASS, NLMSG_DONE, NLMSG_ERROR = 38, 42, 3, 2
NLM_F_REQUEST, NLM_F_DUMP = 1, 0x300
TCA_STATS2, TCA_STATS_BASIC, TCA_STATS_APP = 7, 1, 4


def attrs(buf):
    """Yield (type, payload) of the netlink attributes in buf."""
    off = 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from("HH", buf, off)
        if alen < 4:
            break
        yield atype & 0x3fff, buf[off + 4:off + alen]
        off += (alen + 3) & ~3


def tc_dump(sk, rtm, ifindex):
    """Yield (handle, {TCA_STATS_* type: payload}) for each qdisc or class
    of ifindex in an RTM_GETQDISC or RTM_GETTCLASS dump on netlink socket
    sk.  Consume it whole: the dump's end leaves the socket empty."""
    tcm = struct.pack("BBHiIII", socket.AF_UNSPEC, 0, 0, ifindex, 0, 0, 0)
    sk.send(struct.pack("IHHII", 16 + len(tcm), rtm,
                        NLM_F_REQUEST | NLM_F_DUMP, 1, 0) + tcm)
    while True:
        buf = sk.recv(1 << 20)
        off = 0
        while off + 16 <= len(buf):
            mlen, mtype = struct.unpack_from("IH", buf, off)
            msg = buf[off + 16:off + mlen]
            off += (mlen + 3) & ~3
            if mtype in (NLMSG_DONE, NLMSG_ERROR):
                return
            _, _, _, idx, hdl, _, _ = struct.unpack_from("BBHiIII", msg)
            if idx != ifindex:
                continue
            stats = {}
            for atype, payload in attrs(msg[20:]):
                if atype == TCA_STATS2:
                    stats.update(attrs(payload))
            yield hdl, stats


def qdisc_read(dev, handle):
    """Bytes and packets of qdisc HANDLE ("10:") of DEV, and when read."""
    ifindex = socket.if_nametoindex(dev)
    want = int(handle.rstrip(":"), 16) << 16
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                       socket.NETLINK_ROUTE)
    t0 = time.monotonic()
    found = None
    for hdl, stats in tc_dump(sk, RTM_GETQDISC, ifindex):
        if hdl == want and TCA_STATS_BASIC in stats:
            found = struct.unpack_from("QI", stats[TCA_STATS_BASIC])
    t1 = time.monotonic()
    sk.close()
    if found is None:
        sys.exit("no qdisc %s on %s" % (handle, dev))
    return found[0], found[1], (t0 + t1) / 2


def read(dev, what):
    with open("/sys/class/net/%s/statistics/%s" % (dev, what)) as f:
        return int(f.read())


def main():
    if sys.argv[1] == "-q":
        handle, dev, secs = sys.argv[2], sys.argv[3], float(sys.argv[4])
        b0, p0, t0 = qdisc_read(dev, handle)
        time.sleep(secs)
        b1, p1, t1 = qdisc_read(dev, handle)
        print(json.dumps({"secs": t1 - t0, "bytes": b1 - b0,
                          "packets": p1 - p0,
                          "bps": (b1 - b0) * 8 / (t1 - t0)}))
        return
    dev, secs = sys.argv[1], float(sys.argv[2])
    wait = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    start = read(dev, "tx_bytes")
    while read(dev, "tx_bytes") - start < wait:
        time.sleep(0.01)
    b0, p0, t0 = read(dev, "tx_bytes"), read(dev, "tx_packets"), \
        time.monotonic()
    time.sleep(secs)
    b1, p1, t1 = read(dev, "tx_bytes"), read(dev, "tx_packets"), \
        time.monotonic()
    print(json.dumps({"secs": t1 - t0, "bytes": b1 - b0,
                      "packets": p1 - p0,
                      "bps": (b1 - b0) * 8 / (t1 - t0)}))


if __name__ == "__main__":
    main()
