#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the JSON of bench/bench-bulk is sane and complete.

usage: bulk_check.py BULK.json
Prints one "ok - ..." or "not ok - ..." line per check and exits 1 if any
check failed.  It checks what every run must satisfy, however noisy: every
row there with all its runs, all from the one boot, each run's bytes,
throughput and CPU per GB positive and finite, its clients alive to the
end of the window, GSO at work (skbs far above one MTU, TSO and GSO on),
no drop anywhere (qdiscs, veth, softnet backlog), the queues each fed by
one CPU and used by mq's children, ratios relative to mq+fq from the same
file, each ddl job keyed to a class of its own and spread over several
queues under mq.  It does not judge whether a figure is good, nor the
targets (mq+ddl against mq+fq), which a noisy quick run can miss.
"""
import json
import sys

import tap

ROWS = ("noqueue", "mq+pfifo_fast", "mq+fq", "mq+fq_codel", "ddl", "mq+ddl")
BASE = "mq+fq"
MQ = tuple(r for r in ROWS if r.startswith("mq+"))
# GSO at work: a0 sends skbs of several MTUs (1500 bytes) on average.
MIN_BYTES_PER_SKB = 4 * 1500

check = tap.check
num = tap.num


def main():
    try:
        data = json.load(open(sys.argv[1]))
        cfg = data["config"]
        rows = {r["name"]: r for r in data["rows"]}
        runs, ncpu, nq = cfg["runs"], cfg["cpus"], cfg["queues"]
        smap = cfg["stream_map"]
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        check(False, "results parse", repr(e))
        return 1
    check(True, "results parse")

    check(data.get("baseline") == BASE, "ratios relative to %s" % BASE,
          "%r" % data.get("baseline"))
    check(nq >= 4 and nq % ncpu == 0 and cfg["streams"] == len(smap)
          and len(smap) >= nq,
          "%d queues (>= 4, a multiple of %d CPUs), %d streams"
          % (nq, ncpu, len(smap)))
    owner = {}
    for s in smap:
        owner.setdefault(s["queue"], set()).add(s["cpu"])
    check(sorted(owner) == list(range(nq))
          and all(len(c) == 1 for c in owner.values())
          and {s["cpu"] for s in smap} == set(range(ncpu)),
          "every queue fed by one CPU, every CPU sends",
          "queue -> CPUs %r" % owner)
    jobs = {}
    for s in smap:
        jobs.setdefault(s["job"], set()).add(s["queue"])
    check(len(jobs) == cfg.get("jobs") and all(len(q) >= 2
                                               for q in jobs.values()),
          "each of the %r jobs on 2 queues or more" % cfg.get("jobs"),
          "job -> queues %r" % jobs)
    feat = cfg.get("features", {})
    check(feat.get("tcp-segmentation-offload") == "on"
          and feat.get("generic-segmentation-offload") == "on",
          "a0 offers TSO and GSO", "%r" % feat)

    boot = cfg.get("boot_id")
    for name in ROWS:
        r = rows.get(name)
        if r is None:
            check(False, "row %s present" % name, "missing")
            continue
        rr = r.get("runs", [])
        check(len(rr) == runs and sorted(x.get("run") for x in rr)
              == list(range(1, runs + 1)),
              "row %s: %d runs" % (name, runs), "%d" % len(rr))
        check(boot and all(x.get("boot_id") == boot for x in rr),
              "row %s: every run in the boot of the others" % name)
        bad = [x for x in rr
               if not all(num(x.get(k)) and x[k] > 0
                          for k in ("bytes", "skbs", "secs", "gbps",
                                    "cpu_s", "cpu_per_gb"))]
        check(rr and not bad,
              "row %s: every run moved bytes, Gbit/s and CPU/GB > 0" % name,
              "%d bad run(s)" % len(bad))
        check(all(x.get("alive") is True for x in rr),
              "row %s: every client sent to the end of the window" % name)
        b = [x.get("bytes_per_skb", 0) for x in rr]
        check(rr and min(b) >= MIN_BYTES_PER_SKB,
              "row %s: GSO, >= %d bytes per skb" % (name, MIN_BYTES_PER_SKB),
              "%r" % b)
        busy = [x.get("busy") for x in rr]
        check(all(num(v) and 0 <= v <= 1.0001 for v in busy),
              "row %s: busy share of the CPUs within 0..1" % name,
              "%r" % busy)
        drops = {k: sum(x.get(k, 0) for x in rr)
                 for k in ("qdisc_drops", "veth_tx_dropped",
                           "peer_rx_dropped", "softnet_dropped")}
        check(not any(drops.values()) and r.get("drops") == 0,
              "row %s: no drops" % name, "%r" % drops)
        roots = {x.get("root") for x in rr}
        want = name.split("+")[0] if "+" in name else name
        check(roots == {want}, "row %s: %s at the root" % (name, want),
              "%r" % roots)
        for k in ("gbps", "cpu_per_gb"):
            v = r.get(k, [])
            med = r.get("median_" + k)
            check(len(v) == runs and num(med) and min(v) <= med <= max(v),
                  "row %s: median %s among its runs" % (name, k),
                  "%r of %r" % (med, v))

    for name in MQ:
        rr = rows.get(name, {}).get("runs", [])
        qb = [x.get("queue_bytes", []) for x in rr]
        check(rr and all(len(q) == nq and min(q) > 0 for q in qb),
              "row %s: a qdisc on each of the %d queues, each sent" %
              (name, nq), "%r" % qb)

    base = rows.get(BASE, {})
    for key, med in (("gbps_ratio", "median_gbps"),
                     ("cpu_per_gb_ratio", "median_cpu_per_gb")):
        check(base.get(key) == 1.0, "%s %s is 1.0" % (BASE, key),
              "%r" % base.get(key))
        wrong = [n for n, r in rows.items()
                 if not num(r.get(key)) or not num(base.get(med))
                 or base[med] <= 0
                 or abs(r[key] - r[med] / base[med]) > 1e-9]
        check(not wrong, "every %s is the median over %s's" % (key, BASE),
              "wrong in %s" % wrong)
    t = data.get("targets", {})
    mq = rows.get("mq+ddl", {})
    check(t.get("gbps_ratio") == mq.get("gbps_ratio")
          and t.get("cpu_per_gb_ratio") == mq.get("cpu_per_gb_ratio")
          and t.get("met") == (t.get("gbps_ratio", 0)
                               >= t.get("gbps_ratio_min", 1)
                               and t.get("cpu_per_gb_ratio", 9)
                               <= t.get("cpu_per_gb_ratio_max", 0)),
          "targets: mq+ddl's ratios, and met as they say", "%r" % t)

    # ddl: one class per job (its DSCP), under mq on 2 queues or more.
    for name, inst in (("ddl", 1), ("mq+ddl", nq)):
        rr = rows.get(name, {}).get("runs", [])
        dd = [x.get("ddl", {}) for x in rr]
        check(rr and all(d.get("instances") == inst
                         and d.get("key_overflow") == 0 for d in dd),
              "row %s: %d ddl, no key overflow" % (name, inst))
        spread = [sorted(len([b for b in q.values() if b > 0])
                         for q in d.get("class_bytes", {}).values())
                  for d in dd]
        least = 1 if inst == 1 else 2
        check(rr and all(len(s) == len(jobs) and min(s) >= least
                         for s in spread),
              "row %s: each job's key in a class, on >= %d ddl"
              % (name, least), "qdiscs per key %r" % spread)

    print("# %s: %d rows checked, %d check(s) failed"
          % (sys.argv[1], len(ROWS), tap.failed))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main())
