#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sample `tc -s -j qdisc show` and `tc -s class show` over time.

usage: tcsample.py DEV HANDLE SECS INTERVAL_MS      (run inside the netns)
Prints JSON: a list of samples {"t": ms since start, "qdisc": {...},
"classes": {"MAJ:MIN": {...}}} for the qdisc HANDLE (e.g. 10:) and its
classes.  tc 6.1 prints classes as text only: tcclass.py parses that.
"""
import importlib.util
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("tcclass",
                                              HERE + "/tcclass.py")
tcclass = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tcclass)


def tc(*args):
    return subprocess.run(["tc", "-s"] + list(args), capture_output=True,
                          text=True, check=True).stdout


def main():
    dev, handle = sys.argv[1], sys.argv[2]
    secs, step = float(sys.argv[3]), int(sys.argv[4]) / 1000.0
    start = time.monotonic()
    samples = []
    while time.monotonic() - start < secs:
        t0 = time.monotonic()
        qd = [q for q in json.loads(tc("-j", "qdisc", "show", "dev", dev))
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
