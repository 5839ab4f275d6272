#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a Prometheus text-format file as node_exporter's textfile
collector would read it, and the naming conventions of sch_ddl's metrics.

usage: prom_check.py FILE
Prints "valid N samples" or the first problems, one per line, and exits 1.
Checked: HELP and TYPE once per family, before its samples; sample lines
well formed (name, labels, a float value); names sch_ddl_*, counters ending
in _total; no series twice; histogram buckets cumulative, "le" ascending up
to +Inf, which equals _count, with a _sum.
"""
import math
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
SAMPLE = re.compile(r"^(%s)(\{(.*)\})? (\S+)$" % NAME)
LABEL = re.compile(r'^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')


def labels(text):
    out = []
    while text:
        m = LABEL.match(text)
        if not m:
            raise ValueError("bad labels at %r" % text)
        out.append((m.group(1), m.group(2)))
        text = text[m.end():]
    return out


def main():
    errs, types, helps, seen, hist = [], {}, set(), set(), {}
    fam_of_sample = {}
    n = 0
    for i, line in enumerate(open(sys.argv[1]), 1):
        line = line.rstrip("\n")
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            words = line.split(" ", 3)
            if len(words) < 4:
                errs.append("%d: short comment" % i)
                continue
            kind, name = words[1], words[2]
            book = helps if kind == "HELP" else types
            if name in book:
                errs.append("%d: second %s for %s" % (i, kind, name))
            if kind == "HELP":
                helps.add(name)
            else:
                if words[3] not in ("counter", "gauge", "histogram"):
                    errs.append("%d: type %s" % (i, words[3]))
                types[name] = words[3]
            continue
        if not line or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            errs.append("%d: not a sample: %r" % (i, line))
            continue
        name, lab, value = m.group(1), m.group(3) or "", m.group(4)
        try:
            lv = labels(lab)
            v = float(value)
        except ValueError as e:
            errs.append("%d: %s" % (i, e))
            continue
        fam = name
        for suf in ("_bucket", "_sum", "_count"):
            if name.endswith(suf) and types.get(name[:-len(suf)]) == "histogram":
                fam = name[:-len(suf)]
        if fam not in types or fam not in helps:
            errs.append("%d: %s before its HELP and TYPE" % (i, name))
            continue
        if not fam.startswith("sch_ddl_"):
            errs.append("%d: %s is not sch_ddl_*" % (i, name))
        if types[fam] == "counter" and not fam.endswith("_total"):
            errs.append("%d: counter %s without _total" % (i, fam))
        if types[fam] != "counter" and fam.endswith("_total"):
            errs.append("%d: %s ends in _total" % (i, fam))
        key = (name, tuple(lv))
        if key in seen:
            errs.append("%d: series twice: %s" % (i, line))
        seen.add(key)
        if types[fam] == "histogram":
            base = tuple(kv for kv in lv if kv[0] != "le")
            h = hist.setdefault((fam, base), {"le": [], "sum": None,
                                             "count": None})
            if name.endswith("_bucket"):
                le = dict(lv).get("le")
                h["le"].append((math.inf if le == "+Inf" else float(le), v))
            elif name.endswith("_sum"):
                h["sum"] = v
            else:
                h["count"] = v
        fam_of_sample[key] = fam
        n += 1
    for (fam, base), h in hist.items():
        les = h["le"]
        if not les or les[-1][0] != math.inf:
            errs.append("%s%r: no +Inf bucket" % (fam, base))
            continue
        if any(a[0] >= b[0] or a[1] > b[1] for a, b in zip(les, les[1:])):
            errs.append("%s%r: buckets not cumulative" % (fam, base))
        if h["count"] != les[-1][1] or h["sum"] is None:
            errs.append("%s%r: _count %r, +Inf %r, _sum %r" %
                        (fam, base, h["count"], les[-1][1], h["sum"]))
    if errs:
        print("\n".join(errs[:20]))
        return 1
    print("valid %d samples" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
