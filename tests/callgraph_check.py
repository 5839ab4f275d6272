#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which core unit includes and calls which, read from kmod/ ("ok - ..."
lines, and "# ..." lines that show the walks).

A unit is kmod/ddl_<unit>.c with its header kmod/ddl_<unit>.h; params is
kmod/ddl_params.h, which every unit shares.  What a file defines is its
unit's: the functions of the .c, static or not, and the static inlines
and the macros of the header (of the .c too).  A unit uses another when
one of its files includes the other's header, or names one of the other's
functions, inlines or macros in a function's or a macro's body: what a
header's inline or macro names, its unit uses.  Checks:

- the graph of which unit uses which has no circle;
- no unit includes ddl_core.h (the glue's index of them all), and every
  header of another unit that a unit's file includes declares something
  that file uses;
- a packet's arrival, ddl_arrived() (what the glue's ddl_enqueue() calls
  of ddl_sched.c), enters each unit at most once: the walk follows every
  call in the order it is written (all branches), into inlines and
  function-like macros and into the other units, and counts each time it
  goes into a unit from another (the glue's call into sched counts as its
  first).

The departure's walks, through what the glue's ddl_dequeue() calls of
ddl_sched.c (ddl_pick(), ddl_served()), are shown, not checked: ddl_pick()
reads the learned period of green and of the job it hands green to, and
ddl_served() updates the job's burst through three inlines of ddl_burst.h.

  tests/callgraph_check.py [TOP]
"""

import os
import re
import sys

UNITS = ["sched", "keymap", "pace", "burst", "predict", "fair", "cluster",
         "log", "gate", "params"]
ARRIVAL = ("ddl_enqueue", "ddl_arrived")
DEPARTURE = ("ddl_dequeue", ("ddl_pick", "ddl_served"))

IDENT = re.compile(r"\b([A-Za-z_]\w*)\b")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do",
            "else", "case", "default", "goto", "break", "continue"}


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def strip(src):
    """The code without comments; the lines stay where they were."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, src, flags=re.S)


def strip_literals(src):
    """The code without string or character literals."""
    return re.sub(r'"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'", blank, src)


class File:
    """What one file defines, declares, includes and uses."""

    def __init__(self, path, unit):
        self.path, self.unit = path, unit
        self.name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            src = strip(f.read())
        self.includes = []
        self.macros = {}        # name -> (function-like, body)
        self.funcs = {}         # name -> body
        self.declared = set()   # names a header offers to its includers
        code = []
        lines = src.split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            if not line.lstrip().startswith("#"):
                code.append(line)
                i += 1
                continue
            full = line
            while full.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                full = full.rstrip()[:-1] + " " + lines[i]
                code.append("")
            code.append("")
            i += 1
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', full)
            if m:
                self.includes.append(m.group(1))
            m = re.match(r"\s*#\s*define\s+(\w+)(\()?(.*)", full)
            if m and not m.group(1).startswith("_DDL_"):
                body = m.group(3)
                if m.group(2):
                    body = body[body.find(")") + 1:]
                self.macros[m.group(1)] = (bool(m.group(2)), body)
        self.code = strip_literals("\n".join(code))
        self._top_level()
        self.declared |= set(self.macros) | set(self.funcs)
        self.uses = set(IDENT.findall(self.code)) | {
            n for _, body in self.macros.values()
            for n in IDENT.findall(body)}

    def _top_level(self):
        code, depth, start, head = self.code, 0, 0, None
        for pos, ch in enumerate(code):
            if ch == "{":
                if depth == 0:
                    head = code[start:pos]
                    body_start = pos
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    name = self._func_name(head)
                    if name:
                        self.funcs[name] = code[body_start:pos + 1]
                        start = pos + 1
                    else:
                        self._aggregate(head, code[body_start:pos + 1])
            elif ch == ";" and depth == 0:
                self._declaration(code[start:pos])
                start = pos + 1

    @staticmethod
    def _func_name(head):
        head = head.strip()
        if "=" in head or not head.endswith(")"):
            return None
        m = re.search(r"(\w+)\s*\(", head)
        return m.group(1) if m and m.group(1) not in KEYWORDS else None

    def _aggregate(self, head, body):
        m = re.search(r"\b(struct|enum|union)\s+(\w+)\s*$", head)
        if m:
            self.declared.add(m.group(2))
        if re.search(r"\benum\b", head):
            self.declared |= set(re.findall(r"[{,]\s*(\w+)", body))

    def _declaration(self, decl):
        decl = decl.strip()
        if not decl or "}" in decl:
            return
        m = re.search(r"(\w+)\s*\(", decl)
        if m and "=" not in decl[:m.start()]:
            self.declared.add(m.group(1))
        m = re.match(r"extern\b.*?(\w+)\s*(\[|;|$)", decl, re.S)
        if m:
            self.declared.add(m.group(1))


def load(top):
    files, where = {}, {}
    for u in UNITS:
        for ext in ("c", "h"):
            path = os.path.join(top, "kmod", "ddl_%s.%s" % (u, ext))
            if os.path.exists(path):
                f = File(path, u)
                files[f.name] = f
    # ddl_params.h is the units' way to the uapi header: what it declares
    # is params'.
    uapi = File(os.path.join(top, "include", "uapi", "linux", "sch_ddl.h"),
                None)
    files["ddl_params.h"].declared |= uapi.declared
    # Which unit a function or macro name belongs to, its body, and
    # whether naming it runs code: a function, a function-like macro, or
    # a constant that calls one.
    for f in files.values():
        for name, body in f.funcs.items():
            where[name] = (f.unit, f.name, body, True)
        for name, (fl, body) in f.macros.items():
            where.setdefault(name, (f.unit, f.name, body, fl))
    # A constant that calls a function or function-like macro of ours.
    for name, (unit, fname, body, fl) in list(where.items()):
        if not fl and any(where[n][3] for n in
                          re.findall(r"\b(\w+)\s*\(", body) if n in where):
            where[name] = (unit, fname, body, True)
    return files, where


def header_unit(top, name, files, seen=None):
    """The units an include of @name brings in: its unit, or, for another
    header of kmod/ (ddl_core.h), the units it includes."""
    if name in files:
        return {files[name].unit}
    seen = seen or set()
    path = os.path.join(top, "kmod", name)
    if name in seen or not os.path.exists(path):
        return set()
    seen.add(name)
    out = set()
    with open(path, encoding="utf-8") as f:
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(),
                              re.M):
            out |= header_unit(top, inc, files, seen)
    return out


def uses(body, where):
    """The names of known functions and macros in @body, in order."""
    return [n for n in IDENT.findall(body) if n in where]


def calls(body, where):
    """The names in @body that run code of their unit, in order."""
    return [n for n in uses(body, where) if where[n][3]]


def walk(root, where):
    """The entries into units on the way through @root: (from unit, to
    unit, name, depth), in the order the code is written."""
    out, stack = [], [root]

    def go(name, depth):
        unit, _, body, _ = where[name]
        for callee in calls(body, where):
            if callee in stack:
                continue
            to = where[callee][0]
            if to != unit:
                out.append((unit, to, callee, depth))
            stack.append(callee)
            go(callee, depth + (to != unit))
            stack.pop()
    go(root, 1)
    return out


def show_walk(root, where, entries):
    """One line per entry, indented by depth; an entry that repeats the
    one before (another branch of the same code) is counted on it."""
    parts = ["%s (%s())" % (where[root][0], root)]
    last, n = None, 0
    for cur in [e[1:] for e in entries] + [None]:
        if cur == last:
            n += 1
            continue
        if last:
            parts.append("%s> %s (%s())%s" % ("  " * (last[2] - 1), last[0],
                                                last[1], " x%d" % n
                                                if n > 1 else ""))
        last, n = cur, 1
    return parts


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files, where = load(top)
    results = []

    # The graph: includes, and calls from functions, inlines and macros.
    edges = {u: set() for u in UNITS}
    why = {}
    for f in files.values():
        for inc in f.includes:
            for v in header_unit(top, inc, files):
                if v != f.unit:
                    edges[f.unit].add(v)
                    why.setdefault((f.unit, v), "%s includes %s" %
                                   (f.name, inc))
        bodies = list(f.funcs.items()) + [
            (n, b) for n, (_, b) in f.macros.items()]
        for name, body in bodies:
            for callee in uses(body, where):
                v = where[callee][0]
                if v != f.unit:
                    edges[f.unit].add(v)
                    why.setdefault((f.unit, v), "%s in %s uses %s" %
                                   (name, f.name, callee))
    state, circles = {}, []

    def visit(u, stack):
        state[u] = 1
        for v in sorted(edges[u]):
            if state.get(v) == 1:
                loop = stack[stack.index(v):] + [u, v] if v in stack \
                    else [u, v]
                circles.append(loop)
            elif v not in state:
                visit(v, stack + [u])
        state[u] = 2
    for u in UNITS:
        if u not in state:
            visit(u, [])
    graph = "; ".join("%s -> %s" % (u, ", ".join(sorted(edges[u])))
                      for u in UNITS if edges[u])

    def explain(loop):
        return " -> ".join(loop) + " (" + "; ".join(
            why[(a, b)] for a, b in zip(loop, loop[1:])) + ")"
    results.append((not circles,
                    "no circle in which unit includes or uses which "
                    "(%s)%s" % (graph, "" if not circles else ": " +
                                " / ".join(explain(c) for c in circles))))

    # Includes: not ddl_core.h, and only headers the file uses.
    core = sorted(f.name for f in files.values()
                  if "ddl_core.h" in f.includes)
    results.append((not core, "no unit includes ddl_core.h%s" %
                    (": " + ", ".join(core) if core else "")))
    unused = []
    for f in sorted(files.values(), key=lambda f: f.name):
        own = "ddl_%s.h" % f.unit
        for inc in f.includes:
            if inc in files and inc != own and \
                    not files[inc].declared & f.uses:
                unused.append("%s includes %s" % (f.name, inc))
    results.append((not unused, "every unit header a unit's file includes "
                    "declares something it uses%s" %
                    (": " + ", ".join(unused) if unused else "")))

    # A packet's way.
    with open(os.path.join(top, "kmod", "sch_ddl_main.c"),
              encoding="utf-8") as f:
        glue = File.__new__(File)
        glue.code = strip_literals(strip(f.read()))
        glue.funcs, glue.declared = {}, set()
        glue._top_level()
    fn, root = ARRIVAL
    results.append((root in calls(glue.funcs.get(fn, ""), where) and
                    where.get(root, ("",))[0] == "sched",
                    "arrival: the glue's %s() calls sched's %s()" %
                    (fn, root)))
    info = []
    if root in where:
        entries = walk(root, where)
        count = {u: 0 for u in UNITS}
        count["sched"] = 1
        for _, to, _, _ in entries:
            count[to] += 1
        twice = ["%s %d times" % (u, n) for u, n in count.items() if n > 1]
        path = [where[root][0]] + [to for _, to, _, _ in entries]
        results.append((not twice,
                        "arrival enters each unit at most once, inlines "
                        "and macros counted (%d entries: %s)%s" %
                        (len(path), " > ".join(path),
                         ": " + ", ".join(twice) if twice else "")))
        info.append(["arrival:"] + show_walk(root, where, entries))
    fn, roots = DEPARTURE
    called = calls(glue.funcs.get(fn, ""), where)
    results.append((all(r in called for r in roots),
                    "departure: the glue's %s() calls sched's %s" %
                    (fn, ", ".join(r + "()" for r in roots))))
    for r in roots:
        if r in where:
            entries = walk(r, where)
            info.append(["departure, %s() (shown, not checked):" % r] +
                        show_walk(r, where, entries))

    for ok, what in results:
        print("%s - %s" % ("ok" if ok else "not ok", what))
    for lines in info:
        print("# " + lines[0])
        for line in lines[1:]:
            print("#   " + line)
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
