#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Assertions on time series recorded by tcsample.py and traffic.py udp-sink.

Prints one "ok - ..." / "not ok - ..." line per assertion (TAP-like, as
tests/lib.sh) and exits 1 if any failed.

  rotation_check.py rotation SAMPLES JOBS MIN_SHARE [TURNS]
        in every sampling interval during which the same job stayed green,
        that job got at least MIN_SHARE of the job bytes (on aggregate, and
        in 80% of the intervals); green visited the jobs in round-robin
        order; every job was green, in more than one round.  The order is
        the one the samples saw, or with TURNS (a copy of the instance's
        debugfs turns file) every green change the qdisc logged
  rotation_check.py sink-share SINK PORTS MIN MAX
        median over busy buckets of the largest per-port share of bytes
        received lies in [MIN, MAX]
  rotation_check.py sink-order SINK PORTS
        no port received a datagram out of order
  rotation_check.py sink-gap SINK PORT MAX_MS
        the longest gap between two arrivals on PORT is at most MAX_MS
  rotation_check.py sink-share-of SINK PORT ALLPORTS MIN MAX [FROM TO]
        PORT's share of all bytes received on ALLPORTS (between FROM and
        TO ms after the sink started; FROM auto:PORTS:MS means the MS ms
        from 1 s after the last of PORTS began to arrive, cut short where
        the first of them stopped arriving) lies in [MIN, MAX]
"""
import json
import statistics
import sys

failed = False


def check(desc, cond, detail=""):
    global failed
    if cond:
        print("ok - %s" % desc)
    else:
        failed = True
        print("not ok - %s%s" % (desc, ": " + detail if detail else ""))


def minor(cls):
    return int(cls.split(":")[1], 16)


def job_bytes(sample, jobs):
    out = {}
    for name, c in sample["classes"].items():
        m = minor(name)
        if 1 <= m <= jobs:
            out[m] = c.get("bytes", 0)
    return out


def class_green(a, b, jobs):
    """The job green all through samples a..b, or None."""
    def field(sample, name):
        return {minor(n): c.get(name) or 0 for n, c in
                sample["classes"].items() if 1 <= minor(n) <= jobs}
    if sum(field(a, "greens").values()) != sum(field(b, "greens").values()):
        return None
    ta, tb = field(a, "green_ns"), field(b, "green_ns")
    grew = [m for m in tb if tb[m] > ta.get(m, 0)]
    return grew[0] if len(grew) == 1 else None


def turns_order(path, jobs):
    """The jobs a debugfs turns file logged made green, first and then by
    the rotation: all of them, and those from the first turn to the last
    job to begin (senders start one by one, and the rotation passes over
    a job with nothing queued)."""
    seq = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0].isdigit() and \
                    w[3] in ("start", "slice"):
                seq.append(int(w[2], 16))
    first = [seq.index(j) for j in range(1, jobs + 1) if j in seq]
    return seq, seq[max(first):] if len(first) == jobs else seq


def rotation(path, jobs, min_share, turns=None):
    samples = json.load(open(path))
    check("enough samples (%d)" % len(samples), len(samples) >= 10)
    green_bytes = total = 0
    intervals = good = 0
    seq = []
    for a, b in zip(samples, samples[1:]):
        ga, gb = a["qdisc"].get("green", 0), b["qdisc"].get("green", 0)
        if gb and (not seq or seq[-1] != gb):
            seq.append(gb)
        # Green from the class dump itself: the qdisc dump is a separate
        # tc call, tens of ms away.  Stable: no class was made green in
        # between; green: the class whose green time grew.
        ga = class_green(a, b, jobs)
        if ga is None:
            continue
        ba, bb = job_bytes(a, jobs), job_bytes(b, jobs)
        delta = {m: bb.get(m, 0) - ba.get(m, 0) for m in bb}
        tot = sum(delta.values())
        if tot < 3000:
            continue
        intervals += 1
        green_bytes += delta.get(ga, 0)
        total += tot
        if delta.get(ga, 0) >= min_share * tot:
            good += 1
        else:
            print("# t=%.0f..%.0f ms green %d: bytes %s" %
                  (a["t"], b["t"], ga, delta))
    check("stable green intervals seen (%d)" % intervals, intervals >= 5)
    share = green_bytes / total if total else 0
    check("green job got %.2f of the bytes while green (want >= %.2f)" %
          (share, min_share), share >= min_share)
    check("green dominated %d of %d intervals" % (good, intervals),
          intervals and good >= 0.8 * intervals)
    seen = seq
    if turns:
        seen, seq = turns_order(turns, jobs)
        print("# rotation turns logged: %s" % seen)
    steps = list(zip(seq, seq[1:]))
    rr = sum(1 for x, y in steps if y == x % jobs + 1)
    check("green moved round robin in %d of %d changes (sequence %s)" %
          (rr, len(steps), seq), steps and rr >= 0.9 * len(steps))
    check("every job was green", set(seen) >= set(range(1, jobs + 1)),
          str(sorted(set(seen))))
    last = samples[-1]["classes"]
    greens = {minor(n): c.get("greens", 0) for n, c in last.items()
              if 1 <= minor(n) <= jobs}
    check("each job made green, more than one round %s" % greens,
          len(greens) == jobs and min(greens.values()) >= 1 and
          sum(greens.values()) > jobs)


def load_sink(path):
    return json.load(open(path))


def sink_share(path, ports, lo, hi):
    sink = load_sink(path)
    per = {p: sink["ports"][str(p)]["buckets"] for p in ports}
    keys = set()
    for b in per.values():
        keys |= set(b)
    shares = []
    totals = {k: sum(per[p].get(k, 0) for p in ports) for k in keys}
    busy = max(totals.values()) if totals else 0
    for k in keys:
        if totals[k] < 0.5 * busy:
            continue        # start, end: the link was not saturated
        shares.append(max(per[p].get(k, 0) for p in ports) / totals[k])
    med = statistics.median(shares) if shares else 0
    check("median largest per-job share %.2f over %d buckets in [%.2f, %.2f]"
          % (med, len(shares), lo, hi), shares and lo <= med <= hi)


def sink_order(path, ports):
    sink = load_sink(path)
    bad = {p: sink["ports"][str(p)]["reordered"] for p in ports}
    check("no datagram out of order %s" % bad, not any(bad.values()))


def sink_gap(path, port, max_ms):
    st = load_sink(path)["ports"][str(port)]
    check("port %d: %d packets, longest gap %.0f ms (bound %d ms)" %
          (port, st["packets"], st["max_gap_ms"], max_ms),
          st["packets"] > 0 and st["max_gap_ms"] <= max_ms)


def sink_share_of(path, port, ports, lo, hi, t0=0, t1=1e12):
    sink = load_sink(path)
    ms = sink["bucket_ms"]

    def nbytes(p):
        return sum(v for k, v in sink["ports"][str(p)]["buckets"].items()
                   if t0 <= int(k) * ms < t1)
    tot = sum(nbytes(p) for p in ports)
    share = nbytes(port) / tot if tot else 0
    check("port %d got %.3f of the bytes in [%g, %g) ms, want [%.2f, %.2f]"
          % (port, share, t0, t1, lo, hi), tot and lo <= share <= hi)


def ports_arg(s):
    return [int(p) for p in s.split(",")]


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "rotation":
        rotation(a[0], int(a[1]), float(a[2]), *a[3:4])
    elif cmd == "sink-share":
        sink_share(a[0], ports_arg(a[1]), float(a[2]), float(a[3]))
    elif cmd == "sink-order":
        sink_order(a[0], ports_arg(a[1]))
    elif cmd == "sink-gap":
        sink_gap(a[0], int(a[1]), float(a[2]))
    elif cmd == "sink-share-of":
        if len(a) > 5 and not a[5].startswith("auto:"):
            win = [float(x) for x in a[5:7]]
        elif len(a) > 5:
            # auto:PORTS:MS: from 1 s after the last of PORTS began to
            # arrive, for MS
            _, ps, dur = a[5].split(":")
            sink = load_sink(a[0])
            ps = [sink["ports"][p] for p in ps.split(",")]
            t0 = max(p["first"] or 0 for p in ps) + 1000
            t1 = min([t0 + float(dur)] + [p["last"] or 0 for p in ps])
            # On a loaded host senders start seconds apart: a window in
            # which one of them had stopped would measure nothing.
            check("the senders overlapped for %.0f ms (want >= 1000)"
                  % (t1 - t0), t1 - t0 >= 1000)
            win = [t0, t1]
        else:
            win = []
        sink_share_of(a[0], int(a[1]), ports_arg(a[2]), float(a[3]),
                      float(a[4]), *win)
    else:
        sys.exit("unknown check " + cmd)
    sys.exit(1 if failed else 0)


main()
