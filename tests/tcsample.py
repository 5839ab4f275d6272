#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample `tc -s -j qdisc show` and `tc -s class show` over time.

usage: tcsample.py DEV HANDLE SECS INTERVAL_MS [classes]   (in the netns)
Prints JSON: a list of samples {"t": ms since start, "qdisc": {...},
"classes": {"MAJ:MIN": {...}}} for the qdisc HANDLE (e.g. 10:) and its
classes.  tc 6.1 prints classes as text only: tcclass.py parses that.
With "classes", samples hold the classes only ("qdisc" is {}), and only
the fields a netlink dump gives without tc: bytes, packets, green_ns,
bytes_green, bytes_yellow and greens.  No process starts per sample, so
a loaded host, where starting tc takes most of a second, still samples
every INTERVAL_MS.
"""
import importlib.util
import json
import os
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("tcclass",
                                              HERE + "/tcclass.py")
tcclass = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tcclass)
spec = importlib.util.spec_from_file_location("txrate", HERE + "/txrate.py")
txrate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(txrate)


XSTATS_CLASS = 1                # TCA_DDL_XSTATS_CLASS
# struct tc_ddl_xstats: type, pad, then struct tc_ddl_cl_stats
XSTATS_FIELDS = ("green_ns", "bytes_green", "bytes_yellow", "greens")


def nl_classes(sk, ifindex, handle):
    """The classes of qdisc HANDLE ("10:") on ifindex, from one dump."""
    major = int(handle.rstrip(":"), 16)
    out = {}
    for hdl, stats in txrate.tc_dump(sk, txrate.RTM_GETTCLASS, ifindex):
        if hdl >> 16 != major:
            continue
        c = {}
        if txrate.TCA_STATS_BASIC in stats:
            c["bytes"], c["packets"] = struct.unpack_from(
                "QI", stats[txrate.TCA_STATS_BASIC])
        app = stats.get(txrate.TCA_STATS_APP, b"")
        if len(app) >= 40 and struct.unpack_from("I", app)[0] == XSTATS_CLASS:
            c.update(zip(XSTATS_FIELDS, struct.unpack_from("4Q", app, 8)))
        out["%x:%x" % (hdl >> 16, hdl & 0xffff)] = c
    return out


def tc(*args):
    return subprocess.run(["tc", "-s"] + list(args), capture_output=True,
                          text=True, check=True).stdout


def main():
    dev, handle = sys.argv[1], sys.argv[2]
    secs, step = float(sys.argv[3]), int(sys.argv[4]) / 1000.0
    classes_only = sys.argv[5:6] == ["classes"]
    if classes_only:
        ifindex = socket.if_nametoindex(dev)
        sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                           socket.NETLINK_ROUTE)
    start = time.monotonic()
    samples = []
    while time.monotonic() - start < secs:
        t0 = time.monotonic()
        if classes_only:
            qd, cls = [], nl_classes(sk, ifindex, handle)
        else:
            qd = [q for q in json.loads(tc("-j", "qdisc", "show", "dev",
                                           dev))
                  if q.get("handle") == handle]
            cls = {c["class"]: c
                   for c in tcclass.parse(tc("class", "show", "dev", dev))
                   if c["class"].startswith(handle)}
        samples.append({"t": (t0 - start) * 1000,
                        "qdisc": qd[0] if qd else {}, "classes": cls})
        time.sleep(max(0.0, step - (time.monotonic() - t0)))
    json.dump(samples, sys.stdout)
    print()


main()
