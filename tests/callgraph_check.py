#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which core unit calls which, read from kmod/ ("ok - ..." lines).

A unit is kmod/ddl_<unit>.c; its entry points are the functions it
defines that are not static (a static inline in its header reads or
updates its own state in place and is not counted).  Checks:

- the graph of which unit calls which has no circle;
- a packet's way through the core enters each other unit at most once:
  from what the glue's ddl_enqueue() and ddl_dequeue() call of
  ddl_sched.c (ddl_arrived(); ddl_pick(), ddl_served()), following
  ddl_sched.c's own helpers; each call site of another unit's entry point
  on that way counts once.  What the glue calls of the other units
  directly is its own (ddl_core.h lists it).

  tests/callgraph_check.py [TOP]
"""

import os
import re
import sys

UNITS = ["sched", "keymap", "pace", "burst", "predict", "fair", "cluster",
         "log"]
PATHS = {"arrival": "ddl_enqueue", "departure": "ddl_dequeue"}

DEF = re.compile(r"^(static\s+)?(?:(?:__always_)?inline\s+|noinline\s+)?"
                 r"(?:const\s+)?"
                 r"(?:struct\s+|enum\s+)?\w+\s*\*?\s*(ddl_\w+)\(", re.M)
CALL = re.compile(r"\b(ddl_\w+)\s*\(")


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def functions(src):
    """{name: (static, body)} of the functions defined at column 0."""
    out = {}
    for m in DEF.finditer(src):
        start = src.find("\n{", m.end())
        semi = src.find(";", m.end())
        if start < 0 or (0 <= semi < start):
            continue        # a prototype
        end = src.find("\n}", start)
        out[m.group(2)] = (bool(m.group(1)), src[start:end])
    return out


def calls(body):
    return CALL.findall(body)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    funcs, entry = {}, {}
    for u in UNITS:
        with open(os.path.join(top, "kmod", "ddl_%s.c" % u)) as f:
            funcs[u] = functions(strip_comments(f.read()))
        for name, (static, _) in funcs[u].items():
            if not static:
                entry[name] = u

    results = []

    # The graph.
    edges = {u: set() for u in UNITS}
    for u in UNITS:
        for _, body in funcs[u].values():
            for name in calls(body):
                if entry.get(name, u) != u:
                    edges[u].add(entry[name])
    state, circle = {}, []

    def visit(u, stack):
        state[u] = 1
        for v in sorted(edges[u]):
            if state.get(v) == 1:
                circle.append(stack + [u, v])
            elif v not in state:
                visit(v, stack + [u])
        state[u] = 2
    for u in UNITS:
        if u not in state:
            visit(u, [])
    graph = "; ".join("%s -> %s" % (u, ", ".join(sorted(edges[u])))
                      for u in UNITS if edges[u])
    results.append((not circle, "no circle among the units (%s)%s" %
                    (graph, "" if not circle else ": " +
                     " / ".join(" -> ".join(c) for c in circle))))

    # A packet's way: ddl_sched.c's functions from the roots, and the
    # call sites of other units' entry points they hold.
    sched = funcs["sched"]
    with open(os.path.join(top, "kmod", "sch_ddl_main.c")) as f:
        glue = functions(strip_comments(f.read()))
    for path, fn in PATHS.items():
        roots = sorted(set(n for n in calls(glue[fn][1])
                           if entry.get(n) == "sched"))
        results.append((bool(roots), "%s: the glue's %s() calls %s" %
                        (path, fn, ", ".join(r + "()" for r in roots))))
        seen, todo, sites = set(), list(roots), {}
        while todo:
            fn = todo.pop()
            if fn in seen or fn not in sched:
                continue
            seen.add(fn)
            for name in calls(sched[fn][1]):
                u = entry.get(name)
                if name in sched:
                    todo.append(name)
                elif u and u != "sched":
                    sites.setdefault(u, []).append("%s() in %s()" %
                                                   (name, fn))
        for u in UNITS[1:]:
            got = sites.get(u, [])
            results.append((len(got) <= 1, "%s enters %s %d time(s)%s" %
                            (path, u, len(got),
                             ": " + ", ".join(sorted(got)) if got else "")))

    for ok, what in results:
        print("%s - %s" % ("ok" if ok else "not ok", what))
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
