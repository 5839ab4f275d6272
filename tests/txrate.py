#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Measure what a device transmits.

usage: txrate.py DEV SECS [WAIT_BYTES]      (run inside the device's netns)
       txrate.py -q HANDLE DEV SECS
Waits until DEV has sent WAIT_BYTES more bytes (default 0: no wait), then
counts its tx_bytes and tx_packets over SECS seconds.  Prints JSON:
{"secs": s, "bytes": b, "packets": p, "bps": bits per second}.

With -q, counts the bytes the qdisc HANDLE of DEV sent instead (from
`tc -s -j`, each read timed at the middle of the tc call): qdisc bytes are
qdisc_pkt_len(), the length the shaper paces by.  A device counts a GSO
packet's headers once, the qdisc once per segment, as on the wire.
"""
import json
import subprocess
import sys
import time


def qdisc_read(dev, handle):
    t0 = time.monotonic()
    out = subprocess.run(["tc", "-s", "-j", "qdisc", "show", "dev", dev],
                         capture_output=True, text=True, check=True).stdout
    t1 = time.monotonic()
    for q in json.loads(out):
        if q.get("handle") == handle:
            return q["bytes"], q["packets"], (t0 + t1) / 2
    sys.exit("no qdisc " + handle)


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
