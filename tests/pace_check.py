#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Queue seen at each burst start, from tcsample.py samples.

usage: pace_check.py SAMPLES.json CLASS
For every sample where CLASS's burst count went up by one, take its
burst_backlog (bytes queued in the other classes when that burst began) if
the class's period was already trusted (predicted) in the sample before.
Prints JSON: {"n", "values", "median", "max", "period_ns", "burst_bytes"},
and for a failure's diagnosis "samples" (taken), "seen" (holding CLASS),
"trusted" (showing it predicted) and "bursts" (its last count).
"""
import json
import sys


def main():
    samples = json.load(open(sys.argv[1]))
    cls = sys.argv[2]
    last, trusted, vals = None, False, []
    c = {}
    seen = ntrusted = 0
    for x in samples:
        c = x["classes"].get(cls)
        if not c:
            continue
        seen += 1
        ntrusted += bool(c.get("predicted"))
        b = c.get("bursts", 0)
        # Count a burst only when exactly one began since the last sample.
        if last is not None and b == last + 1 and trusted:
            vals.append(c.get("burst_backlog", 0))
        last, trusted = b, bool(c.get("predicted"))
    srt = sorted(vals)
    print(json.dumps({"n": len(vals), "values": vals,
                      "samples": len(samples), "seen": seen,
                      "trusted": ntrusted,
                      "bursts": c.get("bursts", 0) if c else 0,
                      "median": srt[len(srt) // 2] if srt else -1,
                      "max": srt[-1] if srt else -1,
                      "period_ns": c.get("period_ns", 0) if c else 0,
                      "burst_bytes": c.get("burst_bytes", 0) if c else 0}))


main()
