#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the JSON of bench/bench-datapath is sane and complete.

usage: datapath_check.py DATAPATH.json
Prints one "ok - ..." or "not ok - ..." line per check and exits 1 if any
check failed.  It checks what every run must satisfy, however noisy: every
row there with all its runs, rates positive and finite, ratios relative to
pfifo_fast, the ddl rows spread over all their jobs, the shaped ddl rows
not held back by the shaper, memory figures positive and a per-job cost
below 64 KiB.  It does not judge whether a rate is good.
"""
import json
import sys

import tap

JOBS = (1, 16, 256, 1024)
BASE = ("noqueue", "pfifo_fast", "pfifo", "prio", "fq_codel", "fq", "ets")
ROWS = (BASE + tuple("ddl-j%d" % j for j in JOBS)
        + tuple("ddl-j%d-paced" % j for j in JOBS))
MEM = ("pfifo_fast", "prio", "fq_codel", "fq", "ets") + tuple(
    "ddl-j%d" % j for j in JOBS)
# A shaper that does not bound the rate holds back (almost) no packet.
MAX_THROTTLED = 0.01

check = tap.check

num = tap.num


def main():
    try:
        data = json.load(open(sys.argv[1]))
        rows = {r["name"]: r for r in data["rows"]}
        runs = data["config"]["runs"]
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        check(False, "results parse", repr(e))
        return 1
    check(True, "results parse")

    for name in ROWS:
        r = rows.get(name)
        if r is None:
            check(False, "row %s present" % name, "missing")
            continue
        pps = r.get("pps", [])
        bad = [p for p in pps if not num(p) or p <= 0]
        check(len(pps) == runs and not bad and len(r.get("runs", [])) == runs,
              "row %s: %d runs, every pps finite and > 0" % (name, runs),
              "pps %r" % pps)
        med, lo, hi = r.get("median"), r.get("min"), r.get("max")
        check(all(num(v) for v in (med, lo, hi)) and 0 < lo <= med <= hi,
              "row %s: 0 < min <= median <= max" % name,
              "min %r median %r max %r" % (lo, med, hi))
        errs = sum(x.get("drops", 0) + x.get("pg_errors", 0)
                   for x in r.get("runs", []))
        check(errs == 0, "row %s: no qdisc drops, no pktgen errors" % name,
              "%d" % errs)

    base = rows.get("pfifo_fast", {})
    check(base.get("ratio") == 1.0, "pfifo_fast ratio is 1.0",
          "%r" % base.get("ratio"))
    for key, stat, name in (
            ("ratio", "median", "every ratio is the median over pfifo_fast's"),
            ("best_ratio", "max",
             "every best ratio is the max over pfifo_fast's max")):
        wrong = [n for n, r in rows.items()
                 if not num(r.get(key)) or not num(base.get(stat))
                 or base[stat] <= 0
                 or abs(r[key] - r[stat] / base[stat]) > 1e-9]
        check(not wrong, name, "wrong in %s" % wrong)

    paced = ["ddl-j%d-paced" % j for j in JOBS]
    check(all(p in rows and "rate" in rows[p].get("qdisc", "")
              for p in paced),
          "ddl shaped rows present for jobs %s" % " ".join(map(str, JOBS)))

    for j in JOBS:
        for name in ("ddl-j%d" % j, "ddl-j%d-paced" % j):
            rr = rows.get(name, {}).get("runs", [])
            keys = [x.get("keys_mapped") for x in rr]
            over = sum(x.get("key_overflow", 0) for x in rr)
            check(rr and all(k == j for k in keys) and over == 0,
                  "row %s: key sport maps onto all %d jobs" % (name, j),
                  "keys_mapped %r, key_overflow %d" % (keys, over))
        rr = rows.get("ddl-j%d-paced" % j, {}).get("runs", [])
        pkts = sum(x.get("packets", 0) for x in rr)
        held = sum(max(x.get("throttles", 0), x.get("overlimits", 0))
                   for x in rr)
        check(rr and pkts > 0 and held <= MAX_THROTTLED * pkts,
              "row ddl-j%d-paced: the shaper held back <= %g%% of packets"
              % (j, MAX_THROTTLED * 100),
              "%d throttles of %d packets" % (held, pkts))

    mem = data.get("memory") or {}
    inst = mem.get("per_instance", {})
    for q in MEM:
        b = inst.get(q, {}).get("bytes")
        check(num(b) and b > 0, "memory per %s instance > 0" % q, "%r" % b)
    by = [inst.get("ddl-j%d" % j, {}).get("bytes") for j in JOBS[1:]]
    check(all(num(b) for b in by) and by == sorted(by),
          "ddl memory grows with jobs 16 < 256 < 1024", "%r" % by)
    pj = mem.get("per_job_bytes")
    check(num(pj) and 0 < pj < 65536,
          "memory per ddl job > 0 and < 64 KiB", "%r" % pj)

    print("# %s: %d rows checked, %d check(s) failed"
          % (sys.argv[1], len(ROWS), tap.failed))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main())
