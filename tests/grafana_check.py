#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the Grafana dashboard against what sch-ddl-exporter writes.

usage: grafana_check.py DASHBOARD EXPORTER
       grafana_check.py --queries DASHBOARD VAR=VALUE...

Grafana is not in Debian, so its own schema check cannot run here.  This
checks what a dashboard import needs (a title, a uid, a schemaVersion,
panels with unique ids, grid positions inside the 24 columns that do not
overlap, every panel on the ${datasource} variable, every target with a
unique refId and an expression) and that every query uses only what the
exporter writes: EXPORTER runs on a made-up qdisc and its debugfs files,
and every sch_ddl_* name in an expression or a template query must be a
series name of its output, every label matched or grouped by one of its
labels (or instance, job, le).  Every $variable must be a template
variable or one of Grafana's.  Prints "valid: N panels, N queries" or the
problems, and exits 1 on a problem.

--queries prints each query with the variables given substituted, one
per line ("PANEL<TAB>QUERY"), for a real Prometheus to run
(scripts/release-test).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BUILTIN = {"__rate_interval", "__interval", "__range"}
PROM_LABELS = {"instance", "job", "le", "__name__"}
PANEL_TYPES = {"row", "timeseries", "heatmap", "stat", "bargauge", "table"}


def exporter_output(exporter):
    """EXPORTER's output for one ddl qdisc with one job class and the
    background class, every statistic present."""
    mod = {}
    with open(exporter) as f:
        exec(compile(f.read(), exporter, "exec"), {"__name__": "x"}, mod)
    q = {"kind": "ddl", "dev": "x0", "handle": "1:", "root": True}
    for row in mod["QDISC_XSTATS"] + mod["QDISC_STATS"]:
        q[row[0]] = 1
    q["options"] = {row[0]: 1 for row in mod.get("QDISC_OPTIONS", [])}
    with tempfile.TemporaryDirectory() as t:
        tc = os.path.join(t, "tc")
        with open(tc, "w") as f:
            f.write("#!/bin/sh\ncat <<'EOF'\n%s\nEOF\n" % json.dumps([q]))
        os.chmod(tc, 0o755)
        d = os.path.join(t, "x0-1:")
        os.mkdir(d)
        cols = ["class"] + [c[0] for c in mod["CLASS_COLS"]]
        with open(os.path.join(d, "classes"), "w") as f:
            f.write(" ".join(cols) + "\n")
            for cls in ("1", "ffff"):
                f.write(" ".join([cls] + ["1"] * (len(cols) - 1)) + "\n")
        n = mod["HIST_BUCKETS"]
        with open(os.path.join(d, "histogram"), "w") as f:
            f.write("job bursts_done p50_us p99_us max_us sum_us %s\n" %
                    " ".join("b%d" % b for b in range(n)))
            f.write("1 " + " ".join(["1"] * (5 + n)) + "\n")
        return subprocess.run([sys.executable, exporter, "--tc", tc,
                               "--debugfs", t], check=True,
                              capture_output=True, text=True).stdout


def series(text):
    """(names, labels) of the samples of a text-format exposition."""
    names, labels = set(), set()
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? ", line)
        names.add(m.group(1))
        labels |= set(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="', m.group(3) or ""))
    return names, labels


def queries(dash):
    """(where, expression) of every panel target and template query."""
    out = []
    for p in dash.get("panels", []):
        for t in p.get("targets", []):
            out.append(("panel %s %s" % (p.get("id"), t.get("refId")),
                        t.get("expr", "")))
    for v in dash.get("templating", {}).get("list", []):
        if v.get("type") == "query":
            q = v.get("query")
            out.append(("variable %s" % v.get("name"),
                        q.get("query", "") if isinstance(q, dict) else q))
    return out


def check_layout(dash, errs):
    for k in ("title", "uid", "schemaVersion", "panels", "templating", "time"):
        if k not in dash:
            errs.append("no %s" % k)
    if not isinstance(dash.get("schemaVersion"), int):
        errs.append("schemaVersion is not a number")
    ids, boxes = set(), []
    for p in dash.get("panels", []):
        pid, g = p.get("id"), p.get("gridPos", {})
        where = "panel %s (%s)" % (pid, p.get("title"))
        if not isinstance(pid, int) or pid in ids:
            errs.append("%s: id missing or not unique" % where)
        ids.add(pid)
        if p.get("type") not in PANEL_TYPES:
            errs.append("%s: unknown type %s" % (where, p.get("type")))
        if not p.get("title"):
            errs.append("%s: no title" % where)
        try:
            x, y, w, h = (int(g[k]) for k in ("x", "y", "w", "h"))
        except (KeyError, TypeError, ValueError):
            errs.append("%s: gridPos needs x, y, w, h" % where)
            continue
        if x < 0 or y < 0 or w < 1 or h < 1 or x + w > 24:
            errs.append("%s: gridPos outside the 24 columns" % where)
        for (bx, by, bw, bh, bwhere) in boxes:
            if x < bx + bw and bx < x + w and y < by + bh and by < y + h:
                errs.append("%s overlaps %s" % (where, bwhere))
        boxes.append((x, y, w, h, where))
        if p.get("type") == "row":
            continue
        if p.get("datasource", {}).get("uid") != "${datasource}":
            errs.append("%s: not on the ${datasource} variable" % where)
        refs = [t.get("refId") for t in p.get("targets", [])]
        if not refs or len(set(refs)) != len(refs) or None in refs:
            errs.append("%s: targets missing or refIds not unique" % where)
        for t in p.get("targets", []):
            if not t.get("expr"):
                errs.append("%s: a target without expr" % where)


def check_queries(dash, names, labels, errs):
    var = {v.get("name") for v in dash.get("templating", {}).get("list", [])}
    for where, q in queries(dash):
        for v in re.findall(r"\$\{?([a-zA-Z_][a-zA-Z0-9_]*)", q):
            if v not in var and v not in BUILTIN:
                errs.append("%s: unknown variable $%s" % (where, v))
        for m in re.findall(r"\bsch_ddl_[a-zA-Z0-9_]+", q):
            if m not in names:
                errs.append("%s: %s is not written by the exporter" %
                            (where, m))
        used = re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"', q)
        for grp in re.findall(r"\b(?:by|without)\s*\(([^)]*)\)", q):
            used += [x.strip() for x in grp.split(",") if x.strip()]
        for lab in re.findall(r"label_values\([^,]*,\s*([a-zA-Z_]\w*)\)", q):
            used.append(lab)
        for lab in used:
            if lab not in labels | PROM_LABELS:
                errs.append("%s: label %s is not the exporter's" % (where, lab))
        depth = {"(": 0, "{": 0, "[": 0}
        close = {")": "(", "}": "{", "]": "["}
        for c in re.sub(r'"(?:[^"\\]|\\.)*"', '""', q):
            if c in depth:
                depth[c] += 1
            elif c in close:
                depth[close[c]] -= 1
                if depth[close[c]] < 0:
                    break
        if any(depth.values()):
            errs.append("%s: brackets do not balance" % where)


def main():
    if sys.argv[1] == "--queries":
        dash = json.load(open(sys.argv[2]))
        subst = dict(a.split("=", 1) for a in sys.argv[3:])
        for where, q in queries(dash):
            for k, v in subst.items():
                q = q.replace("${%s}" % k, v).replace("$" + k, v)
            print("%s\t%s" % (where, q))
        return 0
    errs = []
    try:
        dash = json.load(open(sys.argv[1]))
    except (OSError, ValueError) as e:
        print("not JSON: %s" % e)
        return 1
    names, labels = series(exporter_output(sys.argv[2]))
    check_layout(dash, errs)
    check_queries(dash, names, labels, errs)
    for e in errs[:20]:
        print(e)
    if errs:
        return 1
    print("valid: %d panels, %d queries" %
          (len(dash["panels"]), len(queries(dash))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
