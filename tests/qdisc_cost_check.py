#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the JSON of bench/bench-datapath --inkernel is sane.

usage: qdisc_cost_check.py QDISC-COST.json
Prints one "ok - ..." or "not ok - ..." line per check and exits 1 if any
check failed: every row there, its times positive and ordered (fastest
round <= lower quartile <= median <= upper quartile), no drop of any kind,
the ratios to prio and fq of prio and fq themselves 1, the clock timed.
It does not judge whether a cost is good.
"""
import json
import sys

import tap

ROWS = ("pfifo_fast", "pfifo", "prio", "fq", "fq_codel", "ddl-j1", "ddl-j16",
        "ddl-j16-key")
check = tap.check

num = tap.num


def main():
    try:
        data = json.load(open(sys.argv[1]))
        rows = {r["name"]: r for r in data["rows"]}
        cfg = data["config"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        check(False, "results parse", repr(e))
        return 1
    check(True, "results parse")
    for name in ROWS:
        r = rows.get(name)
        if r is None:
            check(False, "row %s present" % name, "missing")
            continue
        t = [r.get(k) for k in ("min", "p25", "ns", "p75", "max")]
        check(all(num(x) for x in t) and 0 < t[0] and t == sorted(t),
              "row %s: 0 < min <= p25 <= median <= p75 <= max" % name,
              "%r" % t)
        check(all(num(r.get(k)) and r[k] > 0 for k in
                  ("enq_ns", "deq_ns", "paired_prio", "paired_fq")),
              "row %s: enqueue, dequeue and ratios > 0" % name)
        bad = {k: r.get(k) for k in ("enq_drops", "freed", "stuck",
                                       "foreign") if r.get(k) != 0}
        check(not bad, "row %s: no drop, every skb back" % name, "%r" % bad)
        check(len(r.get("load_ns", [])) == cfg.get("loads"),
              "row %s: a median per load" % name)
    check(rows.get("prio", {}).get("paired_prio") == 1.0
          and rows.get("fq", {}).get("paired_fq") == 1.0,
          "prio's ratio to prio and fq's to fq are 1")
    check(num(cfg.get("clock_ns")) and cfg["clock_ns"] > 0,
          "the clock alone timed", "%r" % cfg.get("clock_ns"))
    print("# %s: %d rows checked, %d check(s) failed"
          % (sys.argv[1], len(ROWS), tap.failed))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main())
