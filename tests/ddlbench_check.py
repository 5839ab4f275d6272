#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a bench/ddl-bench run produced sane, complete results.

usage: ddlbench_check.py DIR
Prints one "ok - ..." or "not ok - ..." line per check; exits 1 if any
failed.  It checks completeness and consistency, not speed: every policy
ran every iteration of every job, every worker received every update
byte, times are positive and ordered, utilisation is possible, the ideal
is what the scenario implies, every job's JCT is compared with drr's, what
ddl learned of each job is reported and no larger than the job's period
and burst, and the plots are PNG files.  With the quick-sharded preset too (jobs
sharded over two PS hosts): every shard's PS ran with its share of the
update, every worker received the whole update from the shards, the
order of the hosts was compared, and ddl-cluster declared each job's
whole burst on both hosts in mode cluster.
"""
import glob
import json
import math
import os
import sys

import tap
import tcclass


def check(desc, cond, detail=""):
    tap.check(cond, desc, detail)


def main():
    d = sys.argv[1]
    try:
        presets = json.load(open(d + "/report.json"))
    except (OSError, ValueError) as e:
        presets = {}
        check("report.json written", False, str(e))
    check("report.json has quick or quick-sharded",
          "quick" in presets or "quick-sharded" in presets, str(presets)[:80])
    order_count()
    overlap_count()
    window_ratio()
    mix_report()
    late_start()
    stalls()
    if "quick" in presets:
        quick(d, presets["quick"])
    if "quick-sharded" in presets:
        sharded(d, presets["quick-sharded"])
    sys.exit(1 if tap.failed else 0)


def order_count():
    """The report's count of the hosts' order, on made-up shard times:
    two jobs whose bursts overlap on both hosts, in one order or not, and
    two that do not overlap."""
    sys.path.insert(0, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", "bench"))
    import ddl_report

    def run(a1, b1, a2, b2):   # (start, burst) of jobs a, b on hosts 1, 2
        it = lambda sb: {"iters": [{"start": sb[0], "burst": sb[1],
                                    "end": sb[1]}]}
        return ddl_report.same_order({"0": {1: it(a1), 2: it(a2)},
                                      "1": {1: it(b1), 2: it(b2)}})
    got = (run((0, 10), (5, 20), (0, 12), (4, 25)),
           run((0, 10), (5, 20), (0, 30), (4, 25)),
           run((0, 10), (20, 30), (0, 10), (20, 30)))
    check("the hosts' order: same, different, not contending",
          got == ((1, 1), (1, 0), (0, 0)), str(got))


def overlap_count():
    """The fabric's pushes that overlapped, on made-up PS records: three
    jobs of two iterations; in the first, jobs 0 and 1 overlap, job 2
    follows; in the second, all are one after another (a burst that ends
    as the next starts does not overlap it)."""
    import ddl_report

    def ps(*iters):
        return {"iters": [{"start": a, "burst": b, "end": b + 5}
                          for a, b in iters]}
    got = ddl_report.overlapped([ps((0, 10), (50, 60)),
                                 ps((5, 20), (60, 70)),
                                 ps((20, 30), (70, 80))])
    check("the pushes that overlapped: 1 pair of 6", got == (1, 6), str(got))


def window_ratio():
    """A long run's worst window: 30 iterations of 100 under drr; under
    the policy the same, but iterations 10 to 14 take 300 each.  The
    slowest 10 in a row hold all five: (5 x 300 + 5 x 100) / 1000.  A run
    of fewer than 20 iterations has no window."""
    import ddl_report

    drr = [100 * k for k in range(31)]
    pol, t = [0], 0
    for k in range(30):
        t += 300 if 10 <= k < 15 else 100
        pol.append(t)
    got = (ddl_report.worst_window(pol, drr),
           ddl_report.worst_window(pol[:15], drr[:15]))
    check("a long run's worst window: 2.0, none in 14 iterations",
          got == (2.0, None), str(got))


def mix_report():
    """The mixes' summary on made-up results: a job 1.10 x its drr JCT in
    one mix fails the per-job target, the median and the learning hold; a
    policy not run is a "-", not NaN."""
    import ddl_report

    def mix(ddl, drr, worst, learned):
        scn = {"seed": 7, "runner": "ddlemu", "jobs": 2, "load": 0,
               "worker_list": "1,2", "update": "200000,300000",
               "compute_ms": "50,60", "starts": "0,10"}
        pol = {p: {"jct_avg_ms": v, "worst_vs_drr": worst}
               for p, v in (("ddl", ddl), ("drr", drr), ("fq_codel", drr),
                            ("prio", drr))}
        return {"scenario": scn, "policies": pol,
                "learned": [{"policy": "ddl", "burst_ratio": x}
                            for x in learned]}
    no_prio = mix(95, 100, 1.0, (0.95,))
    del no_prio["policies"]["prio"]
    rows, rep = ddl_report.report_mixes({
        "mix-1": mix(90, 100, 0.95, (1.0, 0.98)),
        "mix-2": mix(80, 100, 1.10, (1.02,)),
        "mix-10": no_prio})
    met = [t["met"] for t in rep["targets"]]
    check("mixes: per job, against fq_codel, median, learning judged",
          met == [False, True, True, True] and
          "worst 1.100" in rep["targets"][0]["target"] and
          ": 0.900" in rep["targets"][2]["target"] and
          [r.split(" |")[0] for r in rows if r[:4] in ("| 1 ", "| 2 ",
                                                        "| 10")] ==
          ["| 1", "| 2", "| 10"] and
          "| 0.950 | 0.950 | - | 1.00 |" in next(
              r for r in rows if r.startswith("| 10 ")),
          str(rep["targets"]))


def late_start():
    """The first iteration and JCT on made-up PS records: when every job
    began 470 ms after its launch, they count from the first actual start;
    when only one began late, from the launch."""
    import ddl_report

    def ps(launch, start, burst, end):
        return {"job": "0", "launch": launch, "start": start, "end": end,
                "iters": [{"start": start, "burst": burst, "end": end}]}
    ms = 10**6
    stats = {"policy": "ddl", "tx_bytes": 0, "t0": 0, "t1": 1}
    got = []
    for late in ((470, 480), (0, 470)):
        s = ddl_report.summarize({"rate_bps": 1}, [
            ps(1000 * ms, (1000 + late[0]) * ms, (1000 + late[0] + 100) * ms,
               (1000 + late[0] + 300) * ms),
            ps(1000 * ms, (1000 + late[1]) * ms, (1000 + late[1] + 200) * ms,
               (1000 + late[1] + 400) * ms)], [], stats)
        got.append((round(s["first_burst_avg_ms"]), round(s["jct_avg_ms"])))
    check("a lateness common to all jobs is not counted, one job's is",
          got == [(155, 355), (385, 585)], str(got))


def stalls():
    """Guest stalls on made-up records: those within the run count, cut
    at its ends; one before the launch does not."""
    import ddl_report

    ms = 10**6
    ps = [{"job": "0", "launch": 1000 * ms, "start": 1000 * ms,
           "end": 2000 * ms, "iters": [{"start": 1000 * ms,
                                        "burst": 1500 * ms,
                                        "end": 2000 * ms}]}]
    stats = {"policy": "ddl", "tx_bytes": 0, "t0": 0, "t1": 1,
             "stalls": [(500 * ms, 700 * ms), (1200 * ms, 1500 * ms),
                        (1900 * ms, 2300 * ms)]}
    s = ddl_report.summarize({"rate_bps": 1}, ps, [], stats)
    check("stalls within the run counted, cut at its end",
          (s["stalls"], round(s["stall_ms"])) == (2, 400),
          str((s["stalls"], s["stall_ms"])))


def quick(d, rep):
    import ddl_report

    scn = rep["scenario"]
    jobs, iters = scn["jobs"], scn["iters"]
    wl = [int(x) for x in str(scn.get("worker_list") or
                              scn["workers"]).split(",")]
    nw = [wl[j % len(wl)] for j in range(jobs)]
    sizes = [int(x) for x in str(scn["update"]).split(",")]
    ps = {}
    for f in glob.glob("%s/quick/rep-1/ddl/ps-*.json" % d):
        x = json.load(open(f))
        ps[int(x["job"])] = x
    check("each job's PS ran with its own worker count",
          {j: x["workers"] for j, x in ps.items()} ==
          {j: nw[j] for j in range(jobs)}, str(nw))
    starts = [int(x) for x in scn["starts"].split(",")] \
        if scn.get("starts") else []
    if starts and len(ps) == jobs:
        late = [(ps[j]["launch"] - ps[0]["launch"]) / 1e6
                for j in range(jobs)]
        check("each job starts at its own offset, within 20 ms",
              all(abs(a - (starts[j % len(starts)] - starts[0])) <= 20
                  for j, a in enumerate(late)), str(late))
    want = scn["policies"].split()
    check("every policy reported", sorted(rep["policies"]) == sorted(want),
          "%s, want %s" % (sorted(rep["policies"]), sorted(want)))
    check("solo bound measured for every job",
          len(rep["solo_per_job_ms"]) == jobs and
          all(x > 0 and math.isfinite(x) for x in rep["solo_per_job_ms"]),
          str(rep["solo_per_job_ms"]))
    for p, s in rep["policies"].items():
        check("%s: %d iterations" % (p, jobs * iters),
              s["iterations"] == jobs * iters, str(s["iterations"]))
        check("%s: %d workers reported" % (p, sum(nw)),
              s["workers_reported"] == sum(nw),
              str(s["workers_reported"]))
        got = {}
        for f in glob.glob("%s/quick/rep-*/%s/worker-*.json" % (d, p)):
            w = json.load(open(f))
            got[f] = (w["iters"], sum(w["bytes"]), int(w["job"]))
        bad = [f for f, (n, b, j) in got.items()
               if n != iters or b != iters * sizes[j % len(sizes)]]
        check("%s: every worker received every update byte" % p,
              got and not bad, ", ".join(os.path.basename(f) for f in bad))
        logs = glob.glob("%s/quick/rep-*/%s/stalls.log" % (d, p))
        check("%s: the stall sampler ran" % p,
              logs and all(ddl_report.load_stalls(os.path.dirname(f))
                           is not None for f in logs), str(logs))
        vals = [s[k] for k in s if k.endswith("_ms") and k != "stall_ms"]
        check("%s: times positive and finite" % p,
              all(v > 0 and math.isfinite(v) for v in vals), str(vals))
        check("%s: median <= p99, burst <= iteration <= JCT <= max JCT" % p,
              s["iter_median_ms"] <= s["iter_p99_ms"] and
              s["burst_avg_ms"] <= s["iter_avg_ms"] <= s["jct_avg_ms"] <=
              s["jct_max_ms"])
        check("%s: utilisation in (0, 102%%]" % p,
              0 < s["utilisation"] <= 1.02, "%.3f" % s["utilisation"])
        check("%s: TCP counters read" % p,
              all(r["retrans"] >= 0 and r["timeouts"] >= 0 for r in
                  rep["runs"][p]) and "retrans" in s)
    rate = scn["rate_bps"] / 8
    one = min(nw[j] * (sizes[j % len(sizes)] + 24)
              for j in range(jobs)) * 1514 / 1448 / rate * 1e3
    check("ideal: first burst alone at the rate, average above it",
          rep["ideal_burst_avg_ms"] >= one * 0.999 and
          rep["ideal_burst_last_ms"] >= rep["ideal_burst_avg_ms"],
          "%.1f ms, one burst %.1f ms" % (rep["ideal_burst_avg_ms"], one))
    if "drr" in want:
        r = {p: s.get("jct_vs_drr", {}) for p, s in rep["policies"].items()}
        check("every job's JCT against drr reported",
              all(sorted(v, key=int) == [str(j) for j in range(jobs)] and
                  all(x > 0 and math.isfinite(x) for x in v.values()) and
                  rep["policies"][p]["worst_vs_drr"] == max(v.values())
                  for p, v in r.items()) and
              all(x == 1 for x in r.get("drr", {"-": 0}).values()), str(r))
    # What ddl learned of each job, against the truth.  Three iterations on
    # a machine busy with other tests may split a burst (a pause of the
    # PS longer than the burst gap), which makes the learned burst and
    # period smaller, never larger: so the check is an upper bound (burst
    # within 5 % of the update to all workers, period within 50 % of the
    # iteration) on values that were learned (above 0).
    for p in (p for p in want if p.startswith("ddl")):
        got = {r["job"]: r for r in rep["learned"] if r["policy"] == p}
        check("%s: learned period and burst reported for every job" % p,
              sorted(got, key=int) == [str(j) for j in range(jobs)],
              str(sorted(got)))
        bad = ["job %s: period %.2f burst %.2f" % (j, r["period_ratio"],
                                                  r["burst_ratio"])
               for j, r in got.items()
               if not (0 < r["period_ratio"] <= 1.5 and
                       0 < r["burst_ratio"] <= 1.05)]
        check("%s: learned period and burst no larger than the jobs'" % p,
              got and not bad, ", ".join(bad))
    for base in ("pfifo_fast", "fq_codel"):
        check("gains of ddl over %s reported" % base,
              "ddl/%s" % base in rep["gains"] or base not in want)
    for png in ("throughput.png", "iter-cdf.png"):
        try:
            head = open("%s/quick/%s" % (d, png), "rb").read(8)
        except OSError:
            head = b""
        check(png + " is a PNG", head == b"\x89PNG\r\n\x1a\n")


def sharded(d, rep):
    scn = rep["scenario"]
    jobs, workers, iters = scn["jobs"], scn["workers"], scn["iters"]
    update = int(scn["update"])
    shares = [[int(x) for x in s.split(":")] for s in scn["shards"].split(",")]
    check("quick-sharded: 2 PS hosts, policies drr and ddl-cluster",
          scn["hosts"] == 2 and sorted(rep["policies"]) ==
          ["ddl-cluster", "drr"], "%s %s" % (scn["hosts"],
                                             sorted(rep["policies"])))
    for p, s in rep["policies"].items():
        r = "%s/quick-sharded/rep-1/%s" % (d, p)
        bad = []
        for j in range(jobs):
            for h in (1, 2):
                want = update * shares[j % len(shares)][h - 1] // 100
                try:
                    sh = json.load(open("%s/shard-%d-%d.json" % (r, j, h)))
                except (OSError, ValueError) as e:
                    bad.append(str(e))
                    continue
                if sh["update"] != want or len(sh["iters"]) != iters:
                    bad.append("shard %d-%d: %d B, %d iterations" % (
                        j, h, sh["update"], len(sh["iters"])))
        check("quick-sharded: %s: every shard ran its share" % p, not bad,
              ", ".join(bad))
        check("quick-sharded: %s: %d iterations merged" % (p, jobs * iters),
              s["iterations"] == jobs * iters, str(s["iterations"]))
        got = []
        for f in glob.glob(r + "/worker-*.json"):
            w = json.load(open(f))
            got.append((w["iters"], sum(w["bytes"])))
        check("quick-sharded: %s: every worker received every shard" % p,
              len(got) == jobs * workers and
              all(g == (iters, iters * update) for g in got), str(got))
        c = s["contending"]
        check("quick-sharded: %s: the hosts' order compared" % p,
              c >= 0 and (math.isnan(s["same_order_pct"]) if c == 0 else
                          0 <= s["same_order_pct"] <= 100),
              "%s contending, %s %%" % (c, s["same_order_pct"]))
    r = "%s/quick-sharded/rep-1/ddl-cluster" % d
    for x in ("", "-2"):
        try:
            cls = tcclass.parse(open("%s/class%s.txt" % (r, x)).read())
            q = json.load(open("%s/qdisc%s.json" % (r, x)))[0]
        except (OSError, ValueError, IndexError) as e:
            check("quick-sharded: host %s dumped" % (x or "1"), False, str(e))
            continue
        sizes = sorted(c.get("size", 0) for c in cls)
        check("quick-sharded: host %s: mode cluster, each job's whole burst "
              "declared" % (x[1:] or "1"),
              q["options"].get("mode") == "cluster" and
              sizes == [0] + [workers * update] * jobs,
              "%s %s" % (q["options"].get("mode"), sizes))


main()
