#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The comparison table and plots of a scripts/ddl-bench run.

usage: ddl_report.py DIR [--no-plots]

Reads DIR/scenario.json and DIR/<policy>/{ps-J,worker-J-I,stats}.json.
Writes DIR/report.json and DIR/report.md (printed too) and, with gnuplot,
DIR/throughput.png (per-job throughput over time, fq_codel against ddl)
and DIR/iter-cdf.png (CDF of iteration times per policy).

Times: an iteration runs from the PS starting to send its update until
the last gradient arrived; a burst completes when the last worker holds
the whole update; a job completes when its last iteration ends, counted
from its launch.  The ideal is the serial schedule of anchors.md: the
jobs' bursts, started together, served one after another at the link
rate, smallest first; its average completion is the floor for the
average burst completion of bursts that meet each other.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

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


def load_policy(d):
    ps = [json.load(open(f)) for f in sorted(glob.glob(d + "/ps-*.json"))]
    workers = [json.load(open(f))
               for f in sorted(glob.glob(d + "/worker-*.json"))]
    stats = json.load(open(d + "/stats.json"))
    return ps, workers, stats


def summarize(scn, ps, workers, stats):
    iters, bursts, jcts = [], [], []
    for p in ps:
        for it in p["iters"]:
            iters.append((it["end"] - it["start"]) / 1e6)
            bursts.append((it["burst"] - it["start"]) / 1e6)
        jcts.append((p["end"] - p["launch"]) / 1e6)
    # The bytes the bottleneck sent from the launch until every job ended.
    secs = (stats["t1"] - stats["t0"]) / 1e9
    util = stats["tx_bytes"] * 8 / (scn["rate_bps"] * secs) if secs else 0
    return {
        "policy": stats["policy"],
        "jobs": len(ps),
        "iterations": len(iters),
        "workers_reported": len(workers),
        "iter_avg_ms": mean(iters), "iter_median_ms": pct(iters, 50),
        "iter_p99_ms": pct(iters, 99),
        "jct_avg_ms": mean(jcts), "jct_median_ms": pct(jcts, 50),
        "jct_p99_ms": pct(jcts, 99),
        "burst_avg_ms": mean(bursts),
        "utilisation": util,
        "iter_ms": iters,
    }


def ideal_ms(scn, ps):
    """Average completion of the jobs' bursts served one after another."""
    rate = scn["rate_bps"] / 8
    sizes = sorted(p["workers"] * (p["update"] + HDR) * WIRE for p in ps)
    done, t = [], 0.0
    for s in sizes:
        t += s / rate
        done.append(t * 1e3)
    return mean(done), max(done)


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
    pair = [p for p in ("fq_codel", "ddl") if p in pols]
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
            jobs = write_tput("%s/%s/tput.dat" % (out, p), *data[p][:2],
                              secs=secs)
            lines.append("set title '%s: update throughput per job "
                         "(10 ms bins)'" % p)
            lines.append("set xlabel 'seconds since launch'")
            lines.append("plot " + ", ".join(
                "'%s/%s/tput.dat' using 1:%d with steps title 'job %s'"
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
        with open("%s/%s/cdf.dat" % (out, p), "w") as f:
            for i, x in enumerate(v):
                f.write("%.3f %.4f\n" % (x, (i + 1) / len(v)))
        plot.append("'%s/%s/cdf.dat' using 1:2 with steps lw 2 title '%s'"
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


def main():
    out = os.path.abspath(sys.argv[1])
    scn = json.load(open(out + "/scenario.json"))
    pols = [p for p in scn["policies"].split()
            if os.path.exists("%s/%s/stats.json" % (out, p))]
    data = {p: load_policy("%s/%s" % (out, p)) for p in pols}
    summ = {p: summarize(scn, *data[p]) for p in pols}
    ideal_avg, ideal_last = ideal_ms(scn, data[pols[0]][0])

    rows = ["| policy | iteration avg / median / p99 (ms) | JCT avg / "
            "median / p99 (ms) | burst avg (ms) | utilisation |",
            "|---|---|---|---|---|"]
    for p in pols:
        s = summ[p]
        rows.append("| %s | %.0f / %.0f / %.0f | %.0f / %.0f / %.0f | "
                    "%.0f | %.0f %% |" % (
                        p, s["iter_avg_ms"], s["iter_median_ms"],
                        s["iter_p99_ms"], s["jct_avg_ms"],
                        s["jct_median_ms"], s["jct_p99_ms"],
                        s["burst_avg_ms"], s["utilisation"] * 100))
    gains = {}
    for d in (p for p in pols if p.startswith("ddl")):
        rows += ["", "%s against each baseline (time saved, %%):" % d, "",
                 "| baseline | iteration avg | JCT avg | burst avg |",
                 "|---|---|---|---|"]
        for b in (p for p in pols if not p.startswith("ddl")):
            g = {k: (summ[b][k] - summ[d][k]) * 100 / summ[b][k]
                 for k in ("iter_avg_ms", "jct_avg_ms", "burst_avg_ms")}
            gains["%s/%s" % (d, b)] = g
            rows.append("| %s | %+.1f | %+.1f | %+.1f |" % (
                b, g["iter_avg_ms"], g["jct_avg_ms"], g["burst_avg_ms"]))
    rows += ["", "Ideal serial schedule (%d jobs' bursts started together, "
             "one after another at the rate): average burst completion "
             "%.0f ms, last %.0f ms." % (scn["jobs"], ideal_avg, ideal_last)]
    for d in (p for p in pols if p.startswith("ddl")):
        rows.append("%s's average burst completion: %.0f ms, %.2f x the "
                    "ideal." % (d, summ[d]["burst_avg_ms"],
                                summ[d]["burst_avg_ms"] / ideal_avg))
    made = [] if "--no-plots" in sys.argv else plots(out, pols, summ, data)
    text = "\n".join(rows)
    with open(out + "/report.md", "w") as f:
        f.write(text + "\n")
    rep = {"scenario": scn, "ideal_burst_avg_ms": ideal_avg,
           "ideal_burst_last_ms": ideal_last, "gains": gains,
           "policies": {p: {k: v for k, v in summ[p].items()
                            if k != "iter_ms"} for p in pols},
           "plots": made}
    with open(out + "/report.json", "w") as f:
        json.dump(rep, f, indent=1)
    print(text)
    for m in made:
        print("plot: " + m)


main()
