#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The comparison tables and plots of a bench/ddl-bench run.

usage: ddl_report.py DIR [--no-plots]

Reads DIR/PRESET/scenario.json, DIR/PRESET/rep-K/<policy>/{ps-J,
worker-J-I,stats}.json and DIR/PRESET/solo/job-J/.  Writes DIR/report.json
and DIR/report.md (printed too) and, with gnuplot, per preset
DIR/PRESET/throughput.png (per-job throughput over time, fq_codel against
ddl, first repetition) and DIR/PRESET/iter-cdf.png (CDF of iteration
times per policy, all repetitions).

Times: an iteration runs from the PS starting to send its update until
the last gradient arrived; a burst completes when the last worker holds
the whole update; a job completes when its last iteration ends, counted
from its launch.  The p99 iteration is the 99th percentile of the
iterations of all jobs of a run.  Every figure is the median over the
repetitions of the per-repetition value.

Fairness: drr (one DRR class per job) is per-job fair sharing.  Each
job's JCT under a policy is divided by its JCT under drr in the same
repetition, and the median over the repetitions taken; the worst job is
the largest of these medians.  Without a drr run there are none.

Bounds: the solo bound is each job's average iteration time when it runs
alone (no scheduler can make a job iterate faster), averaged over the
jobs.  The serial schedule of anchors.md (the jobs' bursts, started
together, served one after another at the link rate, smallest first) is
the floor for the average completion of bursts that start together: that
holds for the first iteration only, so only the first iteration's bursts
are compared with it.

The fabric presets (each job's PS on a host of its own, the jobs meeting
on one spine link): the pushes that overlapped are, per iteration, the
pairs of jobs whose update bursts (from the PS's first send of the
iteration to the last worker holding the whole update, as ps-J.json or
shard-J-H.json record them) overlapped in time, of all the pairs: two
bursts that overlap shared the spine.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
import tcclass  # noqa: E402  (the tests' parser of tc -s class show)

# Wire bytes per payload byte of a full TCP segment: 1448 bytes of
# payload (MSS with timestamps) in a 1514-byte frame.
WIRE = 1514 / 1448
HDR = 24  # ddlemu's message header


def pct(vals, p):
    s = sorted(vals)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def mean(vals):
    return sum(vals) / len(vals) if vals else float("nan")


def load_shards(d):
    """A sharded run's PS outputs: {job: {host: shard}}."""
    shards = {}
    for f in glob.glob(d + "/shard-*-*.json"):
        job, host = os.path.basename(f)[6:-5].split("-")
        shards.setdefault(job, {})[int(host)] = json.load(open(f))
    return shards


def merge_shards(shards):
    """One PS record per job from its shards: an iteration starts with its
    first shard and ends with its last, its burst completes with the last
    shard's; the update is the sum of the shards'."""
    ps = []
    for job in sorted(shards, key=int):
        sh = list(shards[job].values())
        n = min(len(s["iters"]) for s in sh)
        ps.append({
            "job": job, "workers": sh[0]["workers"],
            "update": sum(s["update"] for s in sh),
            "launch": min(s["launch"] for s in sh),
            "start": min(s["start"] for s in sh),
            "end": max(s["end"] for s in sh),
            "iters": [{"start": min(s["iters"][i]["start"] for s in sh),
                       "burst": max(s["iters"][i]["burst"] for s in sh),
                       "end": max(s["iters"][i]["end"] for s in sh)}
                      for i in range(n)]})
    return ps


def same_order(shards):
    """How often the PS hosts finished contending bursts in one order:
    (contending, same).  Two jobs' bursts contend on a host when their
    shards' bursts there overlap in time (from the start of one to the
    completion of the other); they count when they contend on two hosts
    or more, and are in the same order when the same job's shard
    completes first on every one of those hosts."""
    jobs = sorted(shards, key=int)
    contend = same = 0
    for x, a in enumerate(jobs):
        for b in jobs[x + 1:]:
            hosts = set(shards[a]) & set(shards[b])
            for ia in range(len(shards[a][min(hosts)]["iters"])
                            if hosts else 0):
                for ib in range(len(shards[b][min(hosts)]["iters"])):
                    signs = set()
                    for h in hosts:
                        ra = shards[a][h]["iters"][ia]
                        rb = shards[b][h]["iters"][ib]
                        if max(ra["start"], rb["start"]) < \
                                min(ra["burst"], rb["burst"]):
                            signs.add((ra["burst"] < rb["burst"], h))
                    if len(signs) < 2:
                        continue
                    contend += 1
                    same += len({s for s, _ in signs}) == 1
    return contend, same


def overlapped(ps):
    """The pushes that overlapped: (overlapping, pairs).  For each
    iteration i and each pair of jobs that both ran it, a pair whose
    bursts of iteration i, [start, burst], overlapped in time."""
    hit = pairs = 0
    for x, a in enumerate(ps):
        for b in ps[x + 1:]:
            for ra, rb in zip(a["iters"], b["iters"]):
                pairs += 1
                hit += max(ra["start"], rb["start"]) < \
                    min(ra["burst"], rb["burst"])
    return hit, pairs


WINDOW = 10  # iterations in a row: a window of a long run


def worst_window(a, b, w=WINDOW):
    """A job's slowest W iterations in a row under one policy against the
    same W iterations under another: A and B are the job's launch and
    then each iteration's end, under each.  None for runs shorter than
    two windows, where the run's JCT says as much."""
    n = min(len(a), len(b)) - 1
    if n < 2 * w:
        return None
    return max((a[k + w] - a[k]) / (b[k + w] - b[k])
               for k in range(n - w + 1))


def load_policy(d):
    ps = [json.load(open(f)) for f in sorted(glob.glob(d + "/ps-*.json"))]
    workers = [json.load(open(f))
               for f in sorted(glob.glob(d + "/worker-*.json"))]
    stats = json.load(open(d + "/stats.json"))
    stats["stalls"] = load_stalls(d)
    shards = load_shards(d)
    if shards and not ps:
        ps = merge_shards(shards)
        stats["order"] = same_order(shards)
    return ps, workers, stats


def load_stalls(d):
    """The times the whole guest did not run, as ddl-bench's real-time
    sampler saw them (stalls.log: "started", then "SLEPT WOKE" in ns for
    each wake-up over 50 ms late), or None for a run whose sampler did not
    start."""
    try:
        with open(d + "/stalls.log") as f:
            lines = [line.split() for line in f]
    except OSError:
        return None
    if not lines or lines[0] != ["started"]:
        return None
    return [(int(a), int(b)) for a, b in lines[1:]]


def stalled_ms(stalls, t0, t1):
    """Milliseconds of @stalls within [t0, t1] (ns)."""
    return sum(max(0, min(b, t1) - max(a, t0)) for a, b in stalls) / 1e6


def began(ps, p):
    """When job p began: its launch, or, when every job began late (the
    emulated machine was slow to run the PS processes at their launch, once
    by 470 ms), the first actual start: a lateness common to all the jobs
    is not the policy's, and was charged to every job's first iteration
    and JCT of that one run."""
    return max(p["launch"], min(x["start"] for x in ps))


def summarize(scn, ps, workers, stats):
    iters, bursts, first, jcts, job_jct, ends = [], [], [], [], {}, {}
    for p in ps:
        t0 = began(ps, p)
        ends[p["job"]] = [t0] + [it["end"] for it in p["iters"]]
        for i, it in enumerate(p["iters"]):
            iters.append((it["end"] - it["start"]) / 1e6)
            bursts.append((it["burst"] - it["start"]) / 1e6)
            if i == 0:
                first.append((it["burst"] - t0) / 1e6)
        jcts.append((p["end"] - t0) / 1e6)
        job_jct[p["job"]] = jcts[-1]
    # The bytes the bottleneck sent from the launch until every job ended,
    # over the samples that bracket that time (w0, w1).
    secs = (stats.get("w1", stats["t1"]) - stats.get("w0", stats["t0"])) / 1e9
    util = stats["tx_bytes"] * 8 / (scn["rate_bps"] * secs) if secs else 0
    tcp = {k: stats["tcp1"][k] - stats["tcp0"][k] for k in stats["tcp1"]} \
        if "tcp1" in stats else {}
    # Guest stalls from the launch to the last job's end
    stalls = stats.get("stalls") or []
    t0 = min(p["launch"] for p in ps) if ps else 0
    t1 = max(p["end"] for p in ps) if ps else 0
    hit = [x for x in stalls if x[1] > t0 and x[0] < t1]
    over, pairs = overlapped(ps)
    return {
        "policy": stats["policy"],
        "jobs": len(ps),
        "iterations": len(iters),
        "workers_reported": len(workers),
        "iter_avg_ms": mean(iters), "iter_median_ms": pct(iters, 50),
        "iter_p99_ms": pct(iters, 99),
        "jct_avg_ms": mean(jcts), "jct_max_ms": max(jcts),
        "job_jct_ms": job_jct, "job_ends": ends,
        "burst_avg_ms": mean(bursts),
        "first_burst_avg_ms": mean(first),
        "utilisation": util,
        "retrans": tcp.get("retrans", 0),
        "timeouts": tcp.get("timeouts", 0),
        "spurious_rtos": tcp.get("spurious_rtos", 0),
        "dsacks": tcp.get("dsacks", 0),
        "reorder": tcp.get("reorder", 0),
        "contending": stats.get("order", (0, 0))[0],
        "same_order_pct": 100 * stats["order"][1] / stats["order"][0]
        if stats.get("order", (0, 0))[0] else float("nan"),
        "overlapped": over, "pairs": pairs,
        "overlapped_pct": 100 * over / pairs if pairs else float("nan"),
        "iter_ms": iters,
        "stalls": len(hit),
        "stall_ms": stalled_ms(hit, t0, t1),
        "sampled": stats.get("stalls") is not None,
    }


def median(vals):
    s = sorted(vals)
    n = len(s)
    return (s[n // 2] + s[(n - 1) // 2]) / 2 if n else float("nan")


def ideal_ms(scn, ps):
    """Average completion of the jobs' bursts served one after another."""
    rate = scn["rate_bps"] / 8
    sizes = sorted(p["workers"] * (p["update"] + HDR) * WIRE for p in ps)
    done, t = [], 0.0
    for s in sizes:
        t += s / rate
        done.append(t * 1e3)
    return mean(done), max(done)


def solo_bound(d, scn):
    """Per job: its average iteration time alone; and their mean."""
    sizes = str(scn["update"]).split(",")
    grads = str(scn["grad"]).split(",")
    comps = str(scn["compute_ms"]).split(",")
    wl = str(scn.get("worker_list") or scn["workers"]).split(",")
    rep, per_job = {}, []
    if not os.path.isdir(d + "/solo"):
        return float("nan"), [float("nan")] * scn["jobs"]
    for j in range(scn["jobs"]):
        k = (sizes[j % len(sizes)], grads[j % len(grads)],
             comps[j % len(comps)], wl[j % len(wl)])
        rep.setdefault(k, j)
        ps, _, _ = load_policy("%s/solo/job-%d" % (d, rep[k]))
        it = [(x["end"] - x["start"]) / 1e6 for x in ps[0]["iters"]]
        per_job.append(mean(it))
    return mean(per_job), per_job


def throughput(workers, bucket_ms=10):
    """Per job: {bucket start (ns): bytes} from the workers' buckets."""
    per_job = {}
    for w in workers:
        job = per_job.setdefault(w["job"], {})
        width = w["bucket_ns"]
        for i, b in enumerate(w["bytes"]):
            t = (w["first"] + i) * width
            k = t // (bucket_ms * 1000000) * bucket_ms * 1000000
            job[k] = job.get(k, 0) + b
    return per_job


def write_tput(path, ps, workers, bucket_ms=10, secs=2.0):
    per_job = throughput(workers, bucket_ms)
    t0 = min(p["launch"] for p in ps)
    jobs = sorted(per_job, key=int)
    step = bucket_ms * 1000000
    with open(path, "w") as f:
        f.write("# t_s " + " ".join("job" + j for j in jobs) + "\n")
        t = t0 // step * step
        while t < t0 + secs * 1e9:
            row = [per_job[j].get(t, 0) * 8 / (bucket_ms / 1e3) / 1e6
                   for j in jobs]
            f.write("%.3f %s\n" % ((t - t0) / 1e9,
                                   " ".join("%.2f" % r for r in row)))
            t += step
    return jobs


def plots(out, pols, summaries, data):
    if not shutil.which("gnuplot"):
        print("(gnuplot not found: no plots)")
        return []
    made = []
    # (ring members report no update throughput: no workers)
    pair = [p for p in ("fq_codel", "ddl") if p in pols and data[p][1]]
    if pair:
        secs = min(2.0, max(summaries[p]["jct_avg_ms"] for p in pair) / 1e3)
        lines = ["set terminal pngcairo noenhanced size 1000,%d"
                 % (300 * len(pair)),
                 "set output '%s/throughput.png'" % out,
                 "set multiplot layout %d,1" % len(pair),
                 "set ylabel 'Mbit/s'", "set key outside right",
                 "set xrange [0:%g]" % secs,
                 "set grid"]
        for p in pair:
            jobs = write_tput("%s/tput-%s.dat" % (out, p), *data[p][:2],
                              secs=secs)
            lines.append("set title '%s: update throughput per job "
                         "(10 ms bins)'" % p)
            lines.append("set xlabel 'seconds since launch'")
            lines.append("plot " + ", ".join(
                "'%s/tput-%s.dat' using 1:%d with steps title 'job %s'"
                % (out, p, i + 2, j) for i, j in enumerate(jobs)))
        lines.append("unset multiplot")
        run_gnuplot(out, "throughput", lines)
        made.append(out + "/throughput.png")
    lines = ["set terminal pngcairo noenhanced size 900,600",
             "set output '%s/iter-cdf.png'" % out,
             "set title 'CDF of iteration times'",
             "set xlabel 'iteration time (ms)'", "set ylabel 'fraction'",
             "set key bottom right", "set grid", "set yrange [0:1]"]
    plot = []
    for p in pols:
        v = sorted(summaries[p]["iter_ms"])
        with open("%s/cdf-%s.dat" % (out, p), "w") as f:
            for i, x in enumerate(v):
                f.write("%.3f %.4f\n" % (x, (i + 1) / len(v)))
        plot.append("'%s/cdf-%s.dat' using 1:2 with steps lw 2 title '%s'"
                    % (out, p, p))
    lines.append("plot " + ", ".join(plot))
    run_gnuplot(out, "iter-cdf", lines)
    made.append(out + "/iter-cdf.png")
    return made


def run_gnuplot(out, name, lines):
    script = "%s/%s.gp" % (out, name)
    with open(script, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run(["gnuplot", script], check=True)



KEYS = ("iter_avg_ms", "iter_median_ms", "iter_p99_ms", "jct_avg_ms",
        "jct_max_ms", "burst_avg_ms", "first_burst_avg_ms", "utilisation",
        "retrans", "timeouts", "spurious_rtos", "dsacks", "reorder",
        "contending",
        "same_order_pct", "stalls", "stall_ms", "overlapped", "pairs",
        "overlapped_pct")


def cluster_targets(name, summ):
    """The sharded presets' targets for mode cluster: (text, met) pairs."""
    out = []
    c = summ.get("ddl-cluster")
    if not c:
        return out
    out.append(("ddl-cluster: the same order on every host in >= 95 %% of "
                "the contending bursts: %.1f %%" % c["same_order_pct"],
                c["same_order_pct"] >= 95))
    # The saturated variant: prio's fixed order starves the last job, so
    # its average is no bound there (the issue asks only 0.9 x drr's).
    if "prio" in summ and name != "sharded-sat":
        r = c["jct_avg_ms"] / summ["prio"]["jct_avg_ms"]
        out.append(("ddl-cluster: avg JCT <= 1.02 x prio's (the same static "
                    "order on every host): %.3f" % r, r <= 1.02))
    if "drr" in summ:
        lim = 0.9 if name == "sharded-sat" else 0.95
        r = c["jct_avg_ms"] / summ["drr"]["jct_avg_ms"]
        out.append(("ddl-cluster: avg JCT <= %.2f x drr's: %.3f" % (lim, r),
                    r <= lim))
        out.append(("ddl-cluster: every job <= 1.05 x its drr JCT: worst "
                    "%.3f" % c["worst_vs_drr"], c["worst_vs_drr"] <= 1.05))
    for p in (p for p in summ if p.startswith("ddl-skew")):
        r = summ[p]["jct_avg_ms"] / c["jct_avg_ms"]
        out.append(("%s: avg JCT <= 1.03 x ddl-cluster's (%s ms of skew): "
                    "%.3f" % (p, p[8:], r), r <= 1.03))
    return out


def launcher_targets(summ):
    """subsets and churn: hosts that hold different jobs, jobs that come
    and go; mode cluster with sizes declared (ddl-cluster) or bound by
    sch-ddl-job as jobs arrive (ddl-job): (text, met) pairs."""
    out = []
    for p in ("ddl-cluster", "ddl-job"):
        c = summ.get(p)
        if not c:
            continue
        out.append(("%s: the same order on the hosts two jobs share in "
                    ">= 95 %% of the contending bursts: %.1f %%"
                    % (p, c["same_order_pct"]), c["same_order_pct"] >= 95))
        if "drr" in summ:
            out.append(("%s: every job <= 1.05 x its drr JCT: worst %.3f"
                        % (p, c["worst_vs_drr"]), c["worst_vs_drr"] <= 1.05))
    return out


def targets(name, summ, bound, learned):
    """The targets for ddl with its defaults: (text, met) pairs."""
    if name in ("subsets", "churn"):
        return launcher_targets(summ)
    if name.startswith(("sharded", "ring")):
        return cluster_targets(name, summ)
    if name.startswith("fabric"):
        return []  # no targets yet: the fabric table says what happened
    if name.startswith("incast"):
        out = []
        for p in ("ddl-dscp", "ddl-dscp-ets"):
            if p not in summ or "ddl-cluster" not in summ:
                continue
            r = summ[p]["jct_avg_ms"] / summ["ddl-cluster"]["jct_avg_ms"]
            out.append(("%s: avg JCT <= 0.9 x the same without the DSCP map "
                        "(ddl-cluster): %.3f" % (p, r), r <= 0.9))
        return out
    if "ddl" not in summ or "fq_codel" not in summ:
        return []
    d, fq = summ["ddl"], summ["fq_codel"]
    out = []
    if name == "torch":
        for r in (r for r in learned if r["policy"] == "ddl"):
            out.append(("job %s: learned period within 10 %% of the true "
                        "one: %.2f" % (r["job"], r["period_ratio"]),
                        abs(r["period_ratio"] - 1) <= 0.1))
        out.append(("avg JCT <= 0.9 x fq_codel's: %.3f" %
                    (d["jct_avg_ms"] / fq["jct_avg_ms"]),
                    d["jct_avg_ms"] <= 0.9 * fq["jct_avg_ms"]))
        return out + fair_targets(summ)
    if name == "compatible":
        out.append(("avg iteration <= 1.05 x solo bound: %.3f" %
                    (d["iter_avg_ms"] / bound),
                    d["iter_avg_ms"] <= 1.05 * bound))
        out.append(("avg iteration <= fq_codel's: %.3f" %
                    (d["iter_avg_ms"] / fq["iter_avg_ms"]),
                    d["iter_avg_ms"] <= fq["iter_avg_ms"]))
        return out + fair_targets(summ)
    out.append(("avg JCT <= fq_codel's: %.3f" %
                (d["jct_avg_ms"] / fq["jct_avg_ms"]),
                d["jct_avg_ms"] <= fq["jct_avg_ms"]))
    out.append(("max JCT <= 1.05 x fq_codel's max: %.3f" %
                (d["jct_max_ms"] / fq["jct_max_ms"]),
                d["jct_max_ms"] <= 1.05 * fq["jct_max_ms"]))
    return out + fair_targets(summ)


def fair_targets(summ):
    """The fair order's promise against per-job fair sharing (drr): the
    average no later, and no job more than 5 % later.  prio is no target:
    its fixed order starves the last job by design."""
    if "drr" not in summ or "ddl" not in summ:
        return []
    d, drr = summ["ddl"], summ["drr"]
    return [("avg JCT <= drr's: %.3f" % (d["jct_avg_ms"] / drr["jct_avg_ms"]),
             d["jct_avg_ms"] <= drr["jct_avg_ms"]),
            ("every job <= 1.05 x its drr JCT: worst %.3f" %
             d["worst_vs_drr"], d["worst_vs_drr"] <= 1.05)]


def learned_vs_true(reps, pols, scn):
    """Per ddl policy and job: the period and burst size the job's class
    learned (tc -s class show after the run) against the true ones."""
    out = []
    if scn.get("hosts", 1) > 1 or scn.get("ring") or scn.get("push"):
        return out  # each host learns its part of the jobs only
    for p in (p for p in pols if p.startswith("ddl")):
        d = "%s/%s" % (reps[0], p)
        if not os.path.exists(d + "/class.txt"):
            continue
        with open(d + "/class.txt") as f:
            cls = {c["class"].split(":")[1]: c for c in tcclass.parse(f.read())}
        for ps in load_policy(d)[0]:
            c = cls.get("%x" % (int(ps["job"]) + 1))
            if not c or not c.get("period_ns"):
                continue
            st = [it["start"] for it in ps["iters"]]
            per = median([b - a for a, b in zip(st, st[1:])]) / 1e6
            true = ps["workers"] * ps["update"]
            out.append({
                "policy": p, "job": ps["job"],
                "period_ms": c["period_ns"] / 1e6, "true_period_ms": per,
                "period_ratio": c["period_ns"] / 1e6 / per,
                "burst_kb": c.get("burst_bytes", 0) / 1e3,
                "true_burst_kb": true / 1e3,
                "true_burst_wire_kb": true * WIRE / 1e3,
                "burst_ratio": c.get("burst_bytes", 0) / (true * WIRE),
                "bursts": c.get("bursts", 0)})
    return out


def class_shares(d, scn):
    """Where each job's bytes went on each sending host (class.txt,
    class-2.txt, ...: tc -s class show after the run): the job's own class
    (minor job + 1 under the policy's qdisc, handle 10:) against the
    payload the job sent from that host (a PS: its updates; a ring member:
    2(W - 1)/W of the tensor per iteration), and the bytes in no job's
    class against all.  Own class bytes are the payload plus the headers
    when every byte is in place, so a ratio of 1 or more holds all of them.
    None when the run left no class file, or no class of the handle 10:."""
    files = sorted(glob.glob(d + "/class*.txt"))
    if not files:
        return None
    recs = {}
    for f in glob.glob(d + "/ps-*.json") + glob.glob(d + "/shard-*.json"):
        r = json.load(open(f))
        host = 1
        if "shard-" in f:
            host = int(f.rsplit("-", 1)[1].split(".")[0])
        if scn.get("ring"):
            w = r["workers"]
            pay = len(r["iters"]) * r["update"] * 2 * (w - 1) / w
        else:
            pay = len(r["iters"]) * r["workers"] * r["update"]
        recs[(r["job"], host)] = pay
    worst, other, total = float("inf"), 0, 0
    for f in files:
        m = os.path.basename(f)[len("class"):-len(".txt")]
        host = int(m[1:]) if m else 1
        with open(f) as fh:
            cls = {c["class"].split(":")[1]: c.get("bytes", 0)
                   for c in tcclass.parse(fh.read())
                   if c["class"].startswith("10:")}
        jobs = {"%x" % (int(j) + 1): pay for (j, h), pay in recs.items()
                if h == host}
        total += sum(cls.values())
        other += sum(b for k, b in cls.items() if k not in jobs)
        for k, pay in jobs.items():
            if pay:
                worst = min(worst, cls.get(k, 0) / pay)
    if not total:
        return None     # no class per job (fq_codel, fq, pfifo_fast)
    return {"own_min": worst, "other_pct": 100 * other / total}


def report_preset(out, name, plot):
    d = "%s/%s" % (out, name)
    scn = json.load(open(d + "/scenario.json"))
    reps = sorted(glob.glob(d + "/rep-*"), key=lambda r: int(r.split("-")[-1]))
    pols = [p for p in scn["policies"].split()
            if all(os.path.exists("%s/%s/stats.json" % (r, p)) for r in reps)]
    runs = {p: [summarize(scn, *load_policy("%s/%s" % (r, p))) for r in reps]
            for p in pols}
    summ = {}
    for p in pols:
        summ[p] = {k: median([s[k] for s in runs[p]]) for k in KEYS}
        for k in ("jobs", "iterations", "workers_reported"):
            summ[p][k] = min(s[k] for s in runs[p])
        summ[p]["iter_ms"] = [x for s in runs[p] for x in s["iter_ms"]]
    # Each job's JCT against its JCT under drr, per-job fair sharing: the
    # ratio in each repetition, then the median over the repetitions.
    jobs = sorted(runs[pols[0]][0]["job_jct_ms"], key=int)
    if "drr" in pols:
        for p in pols:
            r = {j: median([s["job_jct_ms"][j] / f["job_jct_ms"][j]
                            for s, f in zip(runs[p], runs["drr"])])
                 for j in jobs}
            summ[p]["jct_vs_drr"] = r
            summ[p]["worst_vs_drr"] = max(r.values())
            # the worst stretch of a long run: each job's slowest window
            # against the same iterations under drr, the worst job's
            win = [[worst_window(s["job_ends"][j], f["job_ends"][j])
                    for j in jobs] for s, f in zip(runs[p], runs["drr"])]
            if all(x is not None for w in win for x in w):
                summ[p]["worst_window"] = median([max(w) for w in win])
    # hosts whose order is compared: PS hosts, or a ring's members; the
    # fabric's PS hosts share no job
    hosts = scn["workers"] if scn.get("ring") else scn.get("hosts", 1)
    fabric = scn.get("spine", 0)
    order = hosts > 1 and not fabric
    bound, per_job = solo_bound(d, scn)
    ideal_avg, ideal_last = ideal_ms(scn,
                                     load_policy("%s/%s" % (reps[0],
                                                            pols[0]))[0])
    rows = ["## %s" % name, "",
            "%d jobs x %s workers, updates %s B, gradients %s B, compute %s "
            "ms, %d iterations, %s%s%s; median of %d repetition%s." % (
                scn["jobs"], scn["workers"], scn["update"], scn["grad"],
                scn["compute_ms"], scn["iters"], scn["rate"],
                " on the spine, a ring per job whose first member is on a "
                "host of its own (%d such hosts, NICs at %s), the others on "
                "worker hosts" % (scn["jobs"], scn.get("host_rate"))
                if fabric and scn.get("ring") else
                " on each of %d worker hosts (a ring per job)" % hosts
                if scn.get("ring") else
                " on the spine, each job's PS on a host of its own (%d PS "
                "hosts, NICs at %s)" % (hosts, scn.get("host_rate"))
                if fabric else
                " on each of %d PS hosts, shards %s %%" % (
                    hosts, scn["shards"]) if hosts > 1 else "",
                ", %d background TCP flows" % scn["bg_flows"]
                if scn["bg_flows"] else "", len(reps),
                "s" if len(reps) > 1 else ""),
            "Solo bound (each job alone, its average iteration): %.0f ms "
            "(per job: %s)." % (bound, ", ".join("%.0f" % x
                                                  for x in per_job))
            if bound == bound else "No solo runs (solo=0): no solo bound.",
            "",
            "| policy | iter avg / p99 (ms) | x solo | JCT avg / max (ms) | "
            "1st burst (ms) | util | TCP retrans / RTOs (spurious) |%s"
            % (" same order (contending) |" if order else ""),
            "|---|---|---|---|---|---|---|%s" % ("---|" if order else "")]
    for p in pols:
        s = summ[p]
        rows.append("| %s | %.0f / %.0f | %s | %.0f / %.0f | %.0f | "
                    "%.0f %% | %.0f / %.0f (%.0f) |" % (
                        p, s["iter_avg_ms"], s["iter_p99_ms"],
                        cell(s["iter_avg_ms"] / bound, 2), s["jct_avg_ms"],
                        s["jct_max_ms"], s["first_burst_avg_ms"],
                        s["utilisation"] * 100, s["retrans"], s["timeouts"],
                        s["spurious_rtos"]) +
                    (" %.0f %% (%.0f) |" % (s["same_order_pct"],
                                            s["contending"])
                     if order else ""))
    stalled = ["%s rep %d: %d (%.0f ms)" % (p, i + 1, s["stalls"],
                                             s["stall_ms"])
               for p in pols for i, s in enumerate(runs[p]) if s["stalls"]]
    if stalled:
        rows += ["", "Guest stalls within the runs (the emulator stopped "
                 "the whole guest; ddl-bench's stalls.log), which add to "
                 "every time they span and can make TCP time out: " +
                 ", ".join(stalled) + "."]
    elif all(s["sampled"] for p in pols for s in runs[p]):
        rows += ["", "No guest stalls within the runs (stalls.log)."]
    if any(summ[p]["dsacks"] or summ[p]["reorder"] for p in pols):
        rows += ["", "The senders' retransmissions: D-SACKs received (the "
                 "receiver had the segment already: a spurious "
                 "retransmission) and reordering detected.", "",
                 "| policy | retrans | D-SACKs | reordering |",
                 "|---|---|---|---|"]
        rows += ["| %s | %.0f | %.0f | %.0f |" % (
            p, summ[p]["retrans"], summ[p]["dsacks"], summ[p]["reorder"])
            for p in pols]
    rows += ["", "Each job's JCT / its JCT under drr (per-job fair sharing): "
             "the ratio in each repetition, median over the repetitions; "
             "worst: the largest of the jobs' medians%s." % (
                 "" if "drr" in pols else " (drr not run)"), "",
             "| policy | %s | worst job / drr |" % " | ".join(
                 "job %s" % j for j in jobs),
             "|---|%s---|" % ("---|" * len(jobs))]
    for p in pols:
        r = summ[p].get("jct_vs_drr")
        rows.append("| %s | %s | %s |" % (
            p, " | ".join("%.2f" % r[j] if r else "-" for j in jobs),
            "%.2f" % summ[p]["worst_vs_drr"] if r else "-"))
    if fabric:
        rows += ["", "The fabric: the PS hosts run %s (ddl-fabric: %s), the "
                 "spine the queues of each policy.  Pushes overlapped: per "
                 "iteration, the pairs of jobs whose update bursts (first "
                 "send to the last worker's whole update) overlapped in "
                 "time, of all pairs; worst window: each job's slowest %d "
                 "iterations in a row against the same ones under drr, "
                 "the worst job's (runs of %d iterations or more); medians "
                 "over the repetitions." % (
                     "their policy at %s" % scn.get("host_rate"),
                     scn.get("fabricopts") or "-", WINDOW, 2 * WINDOW),
                 "",
                 "| policy | JCT avg (ms) | worst job / drr | worst "
                 "window / drr | iter p99 (ms) | RTOs | pushes overlapped |",
                 "|---|---|---|---|---|---|---|"]
        for p in pols:
            s = summ[p]
            rows.append("| %s | %.0f | %s | %s | %.0f | %.0f | %.0f / %.0f "
                        "(%s %%) |" % (
                            p, s["jct_avg_ms"],
                            cell(s.get("worst_vs_drr", float("nan")), 2),
                            cell(s.get("worst_window", float("nan")), 2),
                            s["iter_p99_ms"], s["timeouts"], s["overlapped"],
                            s["pairs"], cell(s["overlapped_pct"], 0)))
    gains = {}
    for dp in (p for p in pols if p.startswith("ddl")):
        rows += ["", "%s against each baseline (time saved, %%):" % dp, "",
                 "| baseline | iter avg | iter p99 | JCT avg | JCT max |",
                 "|---|---|---|---|---|"]
        for b in (p for p in pols if not p.startswith("ddl")):
            g = {k: (summ[b][k] - summ[dp][k]) * 100 / summ[b][k]
                 for k in ("iter_avg_ms", "iter_p99_ms", "jct_avg_ms",
                           "jct_max_ms")}
            gains["%s/%s" % (dp, b)] = g
            rows.append("| %s | %+.1f | %+.1f | %+.1f | %+.1f |" % (
                b, g["iter_avg_ms"], g["iter_p99_ms"], g["jct_avg_ms"],
                g["jct_max_ms"]))
    rows += ["", "First iteration against the serial schedule (%d bursts "
             "started together, one after another at the rate): average "
             "completion %.0f ms, last %.0f ms." % (scn["jobs"], ideal_avg,
                                                    ideal_last)]
    for dp in (p for p in pols if p.startswith("ddl")):
        rows.append("%s: %.0f ms, %.2f x the serial schedule." % (
            dp, summ[dp]["first_burst_avg_ms"],
            summ[dp]["first_burst_avg_ms"] / ideal_avg))
    learned = learned_vs_true(reps, pols, scn)
    if learned:
        rows += ["", "What ddl learned against the truth (first repetition): "
                 "true period, the job's median iteration start to start; "
                 "true burst, its update to all workers (payload, and with "
                 "the TCP/IP headers of full segments).", "",
                 "| policy | job | period learned / true (ms) | ratio | "
                 "burst learned / true (kB) | ratio | bursts |",
                 "|---|---|---|---|---|---|---|"]
        for r in learned:
            rows.append("| %s | %s | %.1f / %.1f | %.2f | %.0f / %.0f (%.0f) "
                        "| %.2f | %d |" % (
                            r["policy"], r["job"], r["period_ms"],
                            r["true_period_ms"], r["period_ratio"],
                            r["burst_kb"], r["true_burst_kb"],
                            r["true_burst_wire_kb"], r["burst_ratio"],
                            r["bursts"]))
    shares = {}
    if name in ("pods", "containers", "torchrun"):
        for p in pols:
            sh = [class_shares("%s/%s" % (r, p), scn) for r in reps]
            if all(sh):
                shares[p] = {"own_min": min(x["own_min"] for x in sh),
                             "other_pct": max(x["other_pct"] for x in sh)}
        rows += ["", "Each job's bytes in its own class on every sending "
                 "host (tc -s class show after each run): the least, over "
                 "jobs, hosts and repetitions, of the class's bytes / the "
                 "payload the job sent there (headers make it over 1 when "
                 "every byte is in place), and the most, over hosts and "
                 "repetitions, of the bytes in no job's class.", "",
                 "| policy | own class / payload, least | in no job's class, "
                 "most |", "|---|---|---|"]
        rows += ["| %s | %.3f | %.2f %% |" % (p, x["own_min"], x["other_pct"])
                 for p, x in shares.items()]
    tg = targets(name, summ, bound, learned)
    for p in (p for p in ("ddl-pod", "ddl-ctr", "ddl-run") if p in shares):
        x = shares[p]
        tg.append(("%s: >= 99 %% of every job's bytes in its own class on "
                   "every host: own / payload %.3f, in no job's %.2f %%"
                   % (p, x["own_min"], x["other_pct"]),
                   x["own_min"] >= 0.99 and x["other_pct"] <= 1))
        if "drr" in summ:
            r = summ[p]["jct_avg_ms"] / summ["drr"]["jct_avg_ms"]
            tg.append(("%s: avg JCT <= 0.92 x drr's: %.3f" % (p, r),
                       r <= 0.92))
            tg.append(("%s: every job <= 1.05 x its drr JCT: worst %.3f"
                       % (p, summ[p]["worst_vs_drr"]),
                       summ[p]["worst_vs_drr"] <= 1.05))
    if tg:
        rows += ["", "Targets (%s):" % ("mode cluster" if order else
                                         "ddl with its defaults"), ""]
        rows += ["- %s: %s" % ("met" if ok else "NOT met", t) for t, ok in tg]
    made = []
    if plot:
        made = plots(d, pols, summ,
                     {p: load_policy("%s/%s" % (reps[0], p)) for p in pols})
    rep = {"scenario": scn, "solo_bound_ms": bound, "solo_per_job_ms": per_job,
           "ideal_burst_avg_ms": ideal_avg, "ideal_burst_last_ms": ideal_last,
           "gains": gains, "learned": learned, "class_shares": shares,
           "targets": [{"target": t, "met": ok}
                                       for t, ok in tg],
           "runs": {p: [{k: v for k, v in s.items() if k != "iter_ms"}
                        for s in runs[p]] for p in pols},
           "policies": {p: {k: v for k, v in summ[p].items()
                            if k != "iter_ms"} for p in pols},
           "plots": made}
    return rows, rep


def cell(x, digits):
    """A table cell: @x with @digits decimals, "-" for a policy not run
    (NaN)."""
    return "%.*f" % (digits, x) if x == x else "-"


def report_mixes(reps):
    """The mix presets, a row each, and the worst, median and best over
    them: {name: report_preset()'s record}."""
    names = sorted(reps, key=lambda n: int(n[4:]))
    scn0 = reps[names[0]]["scenario"]
    rows = ["## mixes", "",
            "%d mixes drawn from seed %s (%s jobs), one run each; a job "
            "is workers x update (MB), compute (ms), start (ms); load: "
            "CPU-bound processes on the PS host." % (
                len(names), scn0.get("seed"), scn0.get("runner", "ddlemu")),
            "",
            "| mix | jobs | load | ddl avg JCT / drr | / fq_codel | / prio "
            "| worst job / drr | learned / true size |",
            "|---|---|---|---|---|---|---|---|"]
    cols = {k: [] for k in ("drr", "fq_codel", "prio", "worst", "lmin",
                            "lmax")}
    for n in names:
        r = reps[n]
        scn, pol = r["scenario"], r["policies"]
        if "ddl" not in pol:
            rows.append("| %s | ddl not run | | | | | | |" % n[4:])
            continue
        d = pol["ddl"]["jct_avg_ms"]
        ratio = {b: d / pol[b]["jct_avg_ms"] if b in pol else float("nan")
                 for b in ("drr", "fq_codel", "prio")}
        worst = pol["ddl"].get("worst_vs_drr", float("nan"))
        lr = [x["burst_ratio"] for x in r["learned"] if x["policy"] == "ddl"]
        f = [x.split(",") for x in (scn["worker_list"], scn["update"],
                                    scn["compute_ms"], scn["starts"])]
        jobs = "; ".join("%s x %.1f, %s, %s" % (
            f[0][j % len(f[0])], int(f[1][j % len(f[1])]) / 1e6,
            f[2][j % len(f[2])], f[3][j % len(f[3])] if f[3][0] else "0")
            for j in range(scn["jobs"]))
        for b in ratio:
            cols[b].append(ratio[b])
        cols["worst"].append(worst)
        if lr:
            cols["lmin"].append(min(lr))
            cols["lmax"].append(max(lr))
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            n[4:], jobs, scn.get("load", 0), cell(ratio["drr"], 3),
            cell(ratio["fq_codel"], 3), cell(ratio["prio"], 3),
            cell(worst, 2),
            "%.2f-%.2f" % (min(lr), max(lr)) if lr else "-"))
    rows += ["", "Over the mixes:", "",
             "| | ddl avg JCT / drr | / fq_codel | / prio | worst job / "
             "drr | learned / true, lowest | highest |",
             "|---|---|---|---|---|---|---|"]
    for what, fn in (("worst", max), ("median", median), ("best", min)):
        row = []
        for k in ("drr", "fq_codel", "prio", "worst", "lmin", "lmax"):
            v = [x for x in cols[k] if x == x]
            if not v:
                row.append("-")
                continue
            if k == "lmin":
                v = (min if what == "worst" else
                     max if what == "best" else median)(v)
            elif k == "lmax":
                v = (max if what == "worst" else
                     min if what == "best" else median)(v)
            else:
                v = fn(v)
            row.append("%.3f" % v)
        rows.append("| %s | %s |" % (what, " | ".join(row)))
    stalled = ["mix %s %s: %d (%.0f ms)" % (n[4:], p, s["stalls"],
                                             s["stall_ms"])
               for n in names for p, s in reps[n]["policies"].items()
               if s.get("stalls")]
    if stalled:
        rows += ["", "Guest stalls within the runs (stalls.log): " +
                 ", ".join(stalled) + "."]
    ok = [x for x in cols["worst"] if x == x]
    fq = [x for x in cols["fq_codel"] if x == x]
    dr = [x for x in cols["drr"] if x == x]
    lo = [x for x in cols["lmin"] + cols["lmax"] if x == x]
    tg = [("every job <= 1.05 x its drr JCT, in every mix: worst %.3f" %
           max(ok), max(ok) <= 1.05) if ok else None,
          ("avg JCT <= fq_codel's in every mix: worst %.3f" % max(fq),
           max(fq) <= 1) if fq else None,
          ("avg JCT <= 0.92 x drr's in the median mix: %.3f" % median(dr),
           median(dr) <= 0.92) if dr else None,
          ("learned size within 10 %% of the true one, every job of every "
           "mix: %.2f to %.2f" % (min(lo), max(lo)),
           all(abs(x - 1) <= 0.1 for x in lo)) if lo else None]
    rows += ["", "Targets (ddl with its defaults):", ""]
    rows += ["- %s: %s" % ("met" if t[1] else "NOT met", t[0])
             for t in tg if t]
    return rows, {"targets": [{"target": t[0], "met": t[1]}
                              for t in tg if t]}


def main():
    out = os.path.abspath(sys.argv[1])
    names = sorted(os.path.basename(os.path.dirname(f))
                   for f in glob.glob(out + "/*/scenario.json"))
    order = ["saturated", "compatible", "hetero", "background", "torch",
             "sharded", "sharded-imb", "sharded-sat", "sharded3",
             "sharded-torch", "subsets", "churn", "ring", "ring-torch",
             "incast", "incast-torch",
             "fabric", "fabric-torch",
             "quick", "quick-sharded"]
    names.sort(key=lambda n: order.index(n) if n in order else len(order))
    rows, rep = [], {}
    for n in names:
        mix = n.startswith("mix-")
        r, rep[n] = report_preset(out, n,
                                  "--no-plots" not in sys.argv and not mix)
        if not mix:
            rows += r + [""]
    mixes = {n: rep[n] for n in names if n.startswith("mix-")}
    if mixes:
        r, rep["mixes"] = report_mixes(mixes)
        rows += r + [""]
    if "saturated" in rep and "background" in rep:
        a = rep["saturated"]["policies"]
        b = rep["background"]["policies"]
        rows += ["## background against saturated (same jobs, same boot)",
                 "", "| policy | avg iteration without / with background "
                 "(ms) | ratio |", "|---|---|---|"]
        for p in (p for p in b if p in a):
            rows.append("| %s | %.0f / %.0f | %.3f |" % (
                p, a[p]["iter_avg_ms"], b[p]["iter_avg_ms"],
                b[p]["iter_avg_ms"] / a[p]["iter_avg_ms"]))
        rows.append("")
    text = "\n".join(rows)
    with open(out + "/report.md", "w") as f:
        f.write(text)
    with open(out + "/report.json", "w") as f:
        json.dump(rep, f, indent=1)
    print(text)
    for n in names:
        for m in rep[n]["plots"]:
            print("plot: " + m)


if __name__ == "__main__":
    main()
