#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep the texts true to the code.

usage: doc_check.py [TOP]

Reads the tree at TOP (default: this script's repository) and checks:

- tc-ddl.8 stays a reference: at most 500 lines, which groff formats
  without a warning (-ww);
- the option keywords of tc-ddl.8 (SYNOPSIS, QDISC PARAMETERS, CLASS
  PARAMETERS) are those of the plugin's usage text (the "[ ... ]" groups
  of the Usage lines its explain functions print), both ways, and the
  plugin's parser knows each of them;
- the kernel's table of qdisc options, ddl_opts[] in kmod/ddl_params.h:
  each row's field in struct ddl_params has the row's type; every qdisc
  attribute of include/uapi/linux/sch_ddl.h is a row's, once, or one
  nobody sets (UNSETTABLE); and each option is where CONTRIBUTING.md's
  "Adding an option" puts it: in tc-ddl.8, in sch_ddl.rst's table of
  netlink attributes with its type, in the plugin's option table with its
  attribute and in what the plugin prints, written back by sch-ddl-apply
  (by name, or as a number); the exporter's options, the module
  parameters (ddl_debugfs.c, with sch_ddl.rst's ranges and defaults and
  tc-ddl.8's FILES) and the fuzzer's model (tests/fuzz/nlfuzz.py: numbers,
  ranges, defaults) are the table's; the recipe names files that exist;
- every class attribute is one an option sets (CLASS_ATTRS) or
  unsettable, the option is in tc-ddl.8 and sch_ddl.rst names it;
- every name the plugin prints in tc -s (its xstats functions) is in
  tc-ddl.8's STATISTICS, under Qdisc or Class, and every name listed there
  is printed;
- the core's units, the files kmod/ddl_*.c that are not glue (glue
  includes ddl_glue.h), are the units listed in sch_ddl.rst ("Core and
  glue") and in CONTRIBUTING.md (between <!-- units --> and
  <!-- /units -->), and each has a kernel-doc directive in sch_ddl.rst,
  whose every directive names a file that exists;
- every other list of the units agrees with kmod/ too, in the texts
  (README.md, CONTRIBUTING.md, Documentation/*.rst, *.md, *.8) and in the
  opening comments of kmod/sch_ddl_main.c and kmod/ddl_core.h.  A list of
  the units is, in one paragraph (or comment paragraph), four or more
  file names ddl_*.c of which four or more are units, either in a row
  ("ddl_sched.c, ddl_fair.c and ddl_log.c": separated by commas or "and")
  or each at the head of its own line (a bulleted or a column list); it
  must name every unit and nothing else.  "N units" next to "core" or a
  unit's name must say how many there are;
- every function a text names as name() (``name()``, `name()`, \fBname\fR()
  in the man pages) is called or defined in the tree's code (kmod/,
  include/, tc-plugin/, sbin/, bench/, tests/, scripts/; comments left
  out), or is one of KERNEL_API below (kernel functions the texts explain
  that sch_ddl does not call) or TC_API (tc's functions the plugin
  avoids).  With a kernel tree at $KSRC (default
  /tmp/ksrc/linux-source-6.12) each of KERNEL_API must be in it.

One "ok - ..." or "not ok - ..." line per check; exits 1 if one failed.
"""
import ast
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402

MAN_MAX_LINES = 500

# Class attribute (without TCA_DDL_CLASS_) -> the option that sets it; the
# qdisc's are the kernel's table, ddl_opts[].
CLASS_ATTRS = {
    "WEIGHT": "weight",
    "SIZE": "size",
    "CGROUP": "cgroup",
    "ADDRS": "addr",
}
# Attributes no option sets: the enum's zero and the alignment padding.
UNSETTABLE = {"UNSPEC", "PAD"}

# Kernel functions the texts name and sch_ddl does not call (what happens
# to a forwarded packet, the qdisc layer's own path, the clock).
KERNEL_API = {"____dev_forward_skb", "skb_scrub_packet", "ip_forward",
              "rt_tos2priority", "__dev_xmit_skb", "ktime_get"}
# tc's (iproute2's) functions the texts name and the plugin avoids.
TC_API = {"sprint_size", "get_size64"}
KSRC = os.environ.get("KSRC", "/tmp/ksrc/linux-source-6.12")
# Where the functions are: the tree's code.
CODE_DIRS = ("kmod", "include", "tc-plugin", "sbin", "bench", "tests",
             "scripts")
UNITS_IN_COMMENTS = ("kmod/sch_ddl_main.c", "kmod/ddl_core.h")
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
           "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
           "twelve": 12}


def read(top, path):
    with open(os.path.join(top, path), encoding="utf-8") as f:
        return f.read()


def show(names):
    return ", ".join(sorted(names)) or "none"


def both_ways(have, want, what_have, what_want):
    """Why two sets differ, or "" when they do not."""
    why = []
    if want - have:
        why.append("not in %s: %s" % (what_have, show(want - have)))
    if have - want:
        why.append("not in %s: %s" % (what_want, show(have - want)))
    return "; ".join(why)


# --- tc-ddl.8 ---------------------------------------------------------

def man_text(line):
    """A troff line as words: font escapes and quotes gone."""
    line = re.sub(r"\\f[BIRP]|\\f\(..|\\&|\\e", "", line)
    line = line.replace("\\-", "-").replace('"', " ")
    return line


def man_sections(src):
    """{".SH title": [lines]} and {(".SH title", ".SS title"): [lines]}."""
    sh, ss = {}, {}
    cur_sh, cur_ss = None, None
    for line in src.split("\n"):
        m = re.match(r"^\.SH\s+\"?(.*?)\"?\s*$", line)
        if m:
            cur_sh, cur_ss = m.group(1), None
            sh[cur_sh] = []
            continue
        m = re.match(r"^\.SS\s+\"?(.*?)\"?\s*$", line)
        if m and cur_sh is not None:
            cur_ss = m.group(1)
            ss[(cur_sh, cur_ss)] = []
        if cur_sh is not None:
            sh[cur_sh].append(line)
        if cur_ss is not None:
            ss[(cur_sh, cur_ss)].append(line)
    return sh, ss


def man_params(lines):
    """The option keywords of a PARAMETERS section: its .SS headings
    ("ecn, noecn" names two)."""
    opts = set()
    for line in lines:
        m = re.match(r"^\.SS\s+(.*)$", line)
        if m:
            for w in re.split(r"[,\s]+", man_text(m.group(1))):
                if w:
                    opts.add(w)
    return opts


def bracket_groups(text):
    """The top-level "[ ... ]" groups of a usage text."""
    groups, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
            if depth == 1:
                cur = ""
                continue
        elif ch == "]":
            depth -= 1
            if depth == 0:
                groups.append(cur)
                continue
        if depth >= 1:
            cur += ch
    return groups


def keywords(groups):
    """The option keywords of usage groups: "[ ecn | noecn ]" gives ecn and
    noecn (alternatives of one word each), "[ mode fair | rotate ]" and
    "[ mode fair|rotate ]" give mode (the rest are its values)."""
    kws = set()
    for g in groups:
        alts = [a.split() for a in re.split(r"\s+\|\s+", g.strip())]
        if alts and len(alts[0]) > 1:
            alts = alts[:1]
        for words in alts:
            if words and re.match(r"^[a-z_]+$", words[0]):
                kws.add(words[0])
    return kws


def man_synopsis(lines):
    """Keywords of the qdisc and of the class lines of the SYNOPSIS."""
    qd, cl, part = [], [], None
    for line in lines:
        t = man_text(re.sub(r"^\.(B|I|BR|RB|IR|RI|BI|IB)\s+", "", line))
        if "tc qdisc" in t:
            part = qd
        elif "tc class" in t:
            part = cl
        if part is not None and not line.startswith(".SH"):
            part.append(t)
    return (keywords(bracket_groups(" ".join(qd))),
            keywords(bracket_groups(" ".join(cl))))


def man_stats(lines):
    """Names in the tags of a STATISTICS subsection (.TP or .IP), and every
    name of its text ("In JSON turn_ns")."""
    tags, words, tp = set(), set(), False
    for line in lines:
        if tp:
            tp = False
            tags |= set(re.findall(r"[a-z][a-z0-9_]*", man_text(line)))
            continue
        if line.startswith(".TP"):
            tp = True
            continue
        m = re.match(r'^\.IP\s+"(.*)"', line) or \
            re.match(r"^\.IP\s+(\S+)", line)
        if m:
            tags |= set(re.findall(r"[a-z][a-z0-9_]*", man_text(m.group(1))))
            continue
        words |= set(re.findall(r"[a-z][a-z0-9_]*", man_text(line)))
    return tags, tags | words


# --- the plugin ---------------------------------------------------------

def c_functions(src):
    """{name: body} of the top-level C functions of a file."""
    funcs = {}
    for m in re.finditer(r"^(?:static\s+)?[a-z_ ]+\**\b(\w+)\([^;{]*?\)\s*\{"
                         r"(.*?)^\}", src, re.S | re.M):
        funcs[m.group(1)] = m.group(2)
    return funcs


def c_strings(body):
    """The text of a function's string literals, adjacent ones joined."""
    lits = re.findall(r'"((?:[^"\\]|\\.)*)"', body)
    return "".join(lits).replace("\\n", "\n").replace("%%", "%")


def plugin_usage(funcs):
    """Keywords of the qdisc and of the class Usage lines: the groups of
    each "Usage:" paragraph, up to its first empty line."""
    qd, cl = set(), set()
    for name, body in funcs.items():
        text = c_strings(body)
        i = text.lower().find("usage:")
        if i < 0:
            continue
        usage = text[i:].split("\n\n")[0]
        kws = keywords(bracket_groups(usage))
        if re.search(r"\bclass\b", usage.split("\n")[0]):
            cl |= kws
        else:
            qd |= kws
    return qd, cl


def plugin_parsed(src, funcs):
    """Every string literal of the plugin outside its usage functions."""
    rest = src
    for body in funcs.values():
        if "usage:" in c_strings(body).lower():
            rest = rest.replace(body, "")
    return set(re.findall(r'"([a-z_]+)"', rest))


def plugin_stats(body):
    """The names an xstats function prints: counters by field, and the
    names given to the print helpers (JSON and text)."""
    names = set(re.findall(r"DDL_CNT\([^)]*?,\s*(?:qdisc|class),\s*(\w+)\)",
                           body))
    for m in re.finditer(r"ddl_print_\w+\(\s*&?\w+\s*,((?:\s*\"\w+\"\s*,)+)",
                         body):
        names |= set(re.findall(r'"(\w+)"', m.group(1)))
    names |= set(re.findall(r"(?:print_\w+|open_json_\w+)\(\s*PRINT_(?:ANY|JSON)"
                            r"\s*,\s*\"(\w+)\"", body))
    names |= set(re.findall(r"print_\w+\(\s*PRINT_FP\s*,\s*NULL\s*,\s*"
                            r"\"(?:%s)?([a-z_][a-z0-9_]*)[ \"]", body))
    return names


# --- the units ------------------------------------------------------------

def core_units(top):
    units = set()
    for path in glob.glob(os.path.join(top, "kmod", "ddl_*.c")):
        with open(path, encoding="utf-8") as f:
            if not re.search(r'^#include\s+"ddl_glue\.h"', f.read(), re.M):
                units.add(os.path.basename(path))
    return units


def rst_section(src, title):
    """The text of a section of an .rst file, up to the next title of any
    level."""
    lines = src.split("\n")
    out, inside = [], False
    for i, line in enumerate(lines):
        under = lines[i + 1] if i + 1 < len(lines) else ""
        is_title = (line.strip() and re.match(r"^([=\-~^])\1{2,}$", under)
                    and len(under) >= len(line.strip()))
        if is_title:
            if inside:
                break
            inside = line.strip() == title
            continue
        if inside:
            out.append(line)
    return "\n".join(out)


# --- every list of the units, every function named ------------------------

def texts(top):
    """{path: text} of the texts: README.md, CONTRIBUTING.md and
    Documentation/'s .rst, .md and man pages (as words)."""
    out = {}
    paths = ["README.md", "CONTRIBUTING.md"] + sorted(
        os.path.relpath(p, top) for pat in ("*.rst", "*.md", "*.8")
        for p in glob.glob(os.path.join(top, "Documentation", pat)))
    for path in paths:
        src = read(top, path)
        if path.endswith(".8"):
            src = "\n".join(man_text(line) for line in src.split("\n"))
        out[path] = src
    return out


def opening_comment(src):
    """The first comment of a C file that is more than its SPDX line."""
    for m in re.finditer(r"/\*(.*?)\*/", src, re.S):
        if "SPDX-License-Identifier" not in m.group(1):
            return "\n".join(re.sub(r"^\s*\* ?", "", line)
                             for line in m.group(1).split("\n"))
    return ""


def paragraphs(text):
    """Blocks of lines between empty lines, markup gone."""
    text = re.sub(r"[`*]|\\f[BIRP]", "", text)
    return [b for b in re.split(r"\n\s*\n", text) if b.strip()]


def unit_lists(text, units):
    """The lists of the units in a text: [(first words, names)]."""
    name = r"ddl_\w+\.c\b"
    found = []
    for block in paragraphs(text):
        flat = re.sub(r"\s+", " ", block)
        for m in re.finditer(r"%s(?:(?:,| and|, and) %s)+" % (name, name),
                             flat):
            names = re.findall(name, m.group(0))
            if len(names) >= 4 and len(set(names) & units) >= 4:
                found.append((m.group(0)[:60], set(names)))
        heads = [m.group(1) for line in block.split("\n")
                 for m in [re.match(r"^\s*(?:[-+]\s+)?(%s)" % name, line)]
                 if m]
        if len(heads) >= 4 and len(set(heads) & units) >= 4:
            found.append((heads[0] + " ...", set(heads)))
    return found


def unit_counts(text, n):
    """"N units" that do not say n, where the sentence is about the core."""
    bad = []
    for sent in re.split(r"(?<=[.;:])\s+", re.sub(r"\s+", " ", text)):
        if not re.search(r"\bcore\b|ddl_\w+\.c", sent):
            continue
        for m in re.finditer(r"\b(\w+) (?:core )?units\b", sent):
            w = m.group(1).lower()
            k = NUMBERS.get(w, int(w) if w.isdigit() else None)
            if k is not None and k != n:
                bad.append(m.group(0))
    return bad


def strip_comments(path, src):
    """Code without its comments (C's, or # to the end of a line)."""
    if path.endswith((".c", ".h")):
        src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
        return re.sub(r"//[^\n]*", "", src)
    return re.sub(r"(?m)(^|\s)#[^\n]*", r"\1", src)


def code_names(top):
    """Every name followed by "(" in the tree's code: the functions it
    defines and calls (shell functions, python's def, C, awk)."""
    names = set()
    for d in CODE_DIRS:
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                path = os.path.join(root, f)
                try:
                    with open(path, encoding="utf-8") as fh:
                        src = fh.read()
                except (UnicodeDecodeError, OSError):
                    continue
                names |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(",
                                        strip_comments(path, src)))
    return names


def kernel_has(names):
    """The names of the kernel tree at KSRC written as name(; None if
    there is no tree."""
    dirs = [d for d in ("include", "net", "kernel", "lib", "fs")
            if os.path.isdir(os.path.join(KSRC, d))]
    if not names or not dirs:
        return None
    r = subprocess.run(["grep", "-rhoE", r"\b(%s)\(" % "|".join(
        sorted(names))] + dirs, cwd=KSRC, capture_output=True, text=True,
        check=False)
    return {x.rstrip("(") for x in r.stdout.split()}


def check_units_everywhere(top, units, docs):
    bad, n = [], 0
    sources = dict(docs)
    for path in UNITS_IN_COMMENTS:
        sources[path + " (opening comment)"] = opening_comment(read(top, path))
    for path, text in sources.items():
        for where, names in unit_lists(text, units):
            n += 1
            if names != units:
                bad.append("%s, \"%s\": %s" % (
                    path, where, both_ways(names, units, "the list",
                                           "kmod/")))
        for said in unit_counts(text, len(units)):
            bad.append('%s: "%s", not %d' % (path, said, len(units)))
    tap.check(n and not bad,
              "every list of the core's units (%d, in the texts and kmod's "
              "opening comments) names the %d of kmod/" % (n, len(units)),
              "; ".join(bad))


def check_functions(top, docs):
    named = {}
    for path, text in docs.items():
        for name in re.findall(r"(?<![\w.>-])([A-Za-z_]\w*)\(\)", text):
            named.setdefault(name, set()).add(path)
    code = code_names(top)
    missing = {n: p for n, p in named.items()
               if n not in code and n not in KERNEL_API | TC_API}
    tap.check(named and not missing,
              "every function the texts name as name() (%d) is in the "
              "tree's code or the kernel's API" % len(named),
              "; ".join("%s() in %s" % (n, ", ".join(sorted(p)))
                        for n, p in sorted(missing.items())))
    kernel = kernel_has(KERNEL_API)
    if kernel is None:
        tap.check(True, "the kernel functions the texts name: no kernel "
                  "tree at %s, not checked" % KSRC)
    else:
        tap.check(not KERNEL_API - kernel,
                  "the kernel functions the texts name are in %s" % KSRC,
                  "not there: " + show(KERNEL_API - kernel))
# --- the kernel's table of options ---------------------------------------

def enum_values(src):
    """{name: value} of every enum of a C source."""
    vals = {}
    for body in re.findall(r"enum\s*\w*\s*\{(.*?)\}", src, re.S):
        n = 0
        body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
        for item in body.split(","):
            m = re.match(r"\s*(\w+)\s*(?:=\s*(\w+))?\s*$", item)
            if not m:
                continue
            if m.group(2):
                n = int(m.group(2), 0)
            vals[m.group(1)] = n
            n += 1
    return vals


def c_defines(src):
    """{name: expression} of a C source's object-like #defines."""
    return dict(re.findall(r"^#define\s+(\w+)[ \t]+([^\n/]+?)\s*(?:/\*.*)?$",
                           src, re.M))


class Consts:
    """The value of a constant expression of the kernel's table."""
    KNOWN = {"U32_MAX": 2 ** 32 - 1, "U64_MAX": 2 ** 64 - 1,
             "U8_MAX": 255}

    def __init__(self, *srcs):
        self.defs, self.enums = {}, {}
        for src in srcs:
            self.defs.update(c_defines(src))
            self.enums.update(enum_values(src))

    def name(self, n, depth):
        if n in self.KNOWN:
            return self.KNOWN[n]
        if n in self.enums:
            return self.enums[n]
        m = re.match(r"^SZ_(\d+)([KMG])$", n)
        if m:
            return int(m.group(1)) << {"K": 10, "M": 20, "G": 30}[m.group(2)]
        if n in self.defs and depth < 20:
            return self.value(self.defs[n], depth + 1)
        raise ValueError("unknown constant " + n)

    def value(self, expr, depth=0):
        e = re.sub(r"\(~\(__u32\)0\)", str(2 ** 32 - 1), expr)
        e = re.sub(r"\(~\(__u64\)0\)", str(2 ** 64 - 1), e)
        e = re.sub(r"\bBIT_ULL\((\w+)\)", r"(1 << (\1))", e)
        e = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:ULL|UL|LL|U|L)\b", r"\1", e)
        e = re.sub(r"\b[A-Za-z_]\w*\b",
                   lambda m: "(%d)" % self.name(m.group(0), depth), e)
        return int(eval(e, {"__builtins__": {}}))   # noqa: S307


def params_fields(src):
    """{field: (type, array size or None)} of struct ddl_params."""
    m = re.search(r"^struct ddl_params \{(.*?)^\};", src, re.S | re.M)
    return {f: (t, n or None) for t, f, n in
            re.findall(r"^\s*(u8|u16|u32|u64)\s+(\w+)(?:\[(\w+)\])?;",
                       m.group(1) if m else "", re.M)}


def kernel_opts(src):
    """The rows of ddl_opts[]: dicts of name, attr, kind (U32, U64,
    ARRAY), args (of the DDL_U32(...) macro) and the other fields' text."""
    m = re.search(r"ddl_opts\[\][^=]*=\s*\{(.*?)^\};", src, re.S | re.M)
    rows = []
    for body in re.findall(r"\{(.*?)\}", m.group(1) if m else "", re.S):
        row = {}
        k = re.search(r"\bDDL_(U32|U64|ARRAY)\(([^)]*)\)", body)
        if k:
            row["kind"] = k.group(1)
            row["args"] = [a.strip() for a in k.group(2).split(",")]
            body = body.replace(k.group(0), "")
        for f, v in re.findall(r"\.(\w+)\s*=\s*([^,]+)", body):
            row[f] = v.strip().strip('"')
        rows.append(row)
    return rows


def rst_table(text):
    """The rows of the first simple table of an .rst text: lists of the
    cells of its first line (continuation lines left out)."""
    lines = text.split("\n")
    rules = [i for i, line in enumerate(lines)
             if re.match(r"^=+( +=+)+\s*$", line)]
    if len(rules) < 3:
        return []
    cols = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[rules[0]])]
    rows = []
    for line in lines[rules[1] + 1:rules[2]]:
        if not line.strip() or line[:cols[0][1]].strip() == "":
            continue
        cells = [line[a:b2].strip() for (a, _), (b2, _) in
                 zip(cols, cols[1:] + [(len(line), 0)])]
        rows.append(cells)
    return rows


def check_kernel_table(top, man_qd, rst, plugin, uapi, contrib, man_sh):
    params = read(top, "kmod/ddl_params.h")
    debugfs = read(top, "kmod/ddl_debugfs.c")
    exporter = read(top, "sbin/sch-ddl-exporter")
    apply_ = read(top, "sbin/sch-ddl-apply")
    nlfuzz = read(top, "tests/fuzz/nlfuzz.py")
    consts = Consts(uapi, params)
    rows = kernel_opts(params)
    fields = params_fields(params)

    # Each row's field, of its type.
    bad = []
    for r in rows:
        a, kind = r.get("args", []), r.get("kind")
        if kind in ("U32", "U64"):
            if fields.get(a[0]) != (kind.lower(), None):
                bad.append("%s: %s is no %s" % (r.get("name"), a[0],
                                                  kind.lower()))
        elif kind == "ARRAY" and len(a) == 4:
            f = fields.get(a[0])
            if not f or f[0] != a[1] or f[1] is None or \
                    consts.value(f[1]) != consts.value(a[3]):
                bad.append("%s: %s is no %s[%s]" % (r.get("name"), a[0],
                                                     a[1], a[3]))
            if fields.get(a[2]) != ("u32", None):
                bad.append("%s: %s is no u32" % (r.get("name"), a[2]))
        else:
            bad.append("%s: no DDL_U32/U64/ARRAY()" % r.get("name"))
    tap.check(rows and not bad,
              "kmod/ddl_params.h: ddl_opts[] has %d options, each a field of "
              "struct ddl_params of its type" % len(rows), "; ".join(bad))

    by_attr = {}
    for r in rows:
        by_attr.setdefault(r.get("attr", "?"), []).append(r.get("name"))
    body = re.search(r"enum\s*\{\s*TCA_DDL_UNSPEC\b(.*?)\}", uapi, re.S)
    attrs = set(re.findall(r"^\s*(TCA_DDL_\w+)\s*[,=]", "TCA_DDL_UNSPEC," +
                           body.group(1), re.M)) if body else set()
    attrs = {a for a in attrs if not a.startswith("TCA_DDL__")}
    settable = {a for a in attrs if a[len("TCA_DDL_"):] not in UNSETTABLE}
    twice = {a for a, n in by_attr.items() if len(n) > 1}
    tap.check(settable and set(by_attr) == settable and not twice,
              "every qdisc attribute of the uapi header is an option of "
              "ddl_opts[], once, or unsettable (%d)" % len(attrs),
              "; ".join(filter(None, [
                  both_ways(set(by_attr), settable, "ddl_opts[]",
                            "the uapi header"),
                  twice and "twice: " + show(twice)])))
    missing = {a for a in attrs - {"TCA_DDL_UNSPEC"}
               if "``%s``" % a not in rst}
    tap.check(attrs and not missing, "sch_ddl.rst names every qdisc attribute",
              "missing: " + show(missing))
    names = {r.get("name") for r in rows}
    tap.check(names and names <= man_qd,
              "every option of ddl_opts[] is in tc-ddl.8",
              "not documented: " + show(names - man_qd))

    # sch_ddl.rst's table of netlink attributes: a row each, its type.
    table = {c[0].strip("`"): c[1] for c in
             rst_table(rst_section(rst, "Netlink attributes")) if len(c) > 1}
    rtype = {"U32": "u32", "U64": "u64", "ARRAY": "binary"}
    wrong = ["%s (%s, not %s)" % (r.get("attr"), table.get(r.get("attr")),
                                  rtype.get(r.get("kind")))
             for r in rows
             if table.get(r.get("attr")) != rtype.get(r.get("kind"))]
    tap.check(rows and not wrong,
              "sch_ddl.rst's table of netlink attributes has each option's "
              "attribute, with its type",
              "missing or wrong: " + ", ".join(wrong))

    # The plugin: its option table, and what it prints (JSON names).
    m = re.search(r"\bddl_opts\[\]\s*=\s*\{(.*?)^\};", plugin, re.S | re.M)
    prows = re.findall(r'\{\s*"(\w+)",\s*(TCA_DDL_\w+),', m.group(1)) \
        if m else []
    pattr = {}
    for n, a in prows:
        pattr.setdefault(n, set()).add(a)
    bad = [n for n in sorted(names) if n not in pattr]
    bad += ["%s (%s)" % (n, show(a)) for n, a in sorted(pattr.items())
            if a - set(by_attr) or (n in names and not
                                    a & {x for x, v in by_attr.items()
                                         if n in v})]
    tap.check(prows and not bad,
              "the plugin's option table (q_ddl.c) has every option of "
              "ddl_opts[], with its attribute",
              "missing or wrong: " + ", ".join(bad))
    printed = set(re.findall(r"(?:print_\w+|open_json_\w+)\(\s*PRINT_(?:ANY|"
                             r"JSON)\s*,\s*\"(\w+)\"", plugin))
    printed |= set(re.findall(r"ddl_print_(?:us|name)\(\s*\"(\w+)\"", plugin))
    tap.check(names and names <= printed,
              "the plugin prints every option of ddl_opts[] (JSON)",
              "not printed: " + show(names - printed))

    # sch-ddl-apply writes each option back: by name, or as a number.
    m = re.search(r"^DDL_ARGS_NAMED\s*=\s*\{(.*?)\}", apply_, re.S | re.M)
    named = set(re.findall(r'"(\w+)"', m.group(1))) if m else set()
    plain = {"DDL_UNIT_COUNT", "DDL_UNIT_PACKETS", "DDL_UNIT_BYTES",
             "DDL_UNIT_US", "DDL_UNIT_PERCENT"}
    unnamed = {r.get("name") for r in rows if r.get("name") not in named and
               (r.get("kind") != "U32" or r.get("unit") not in plain)}
    tap.check(m and not unnamed,
              "sch-ddl-apply writes every option back, by name (ddl_args()) "
              "or as a number",
              "neither a number nor named: " + show(unnamed))

    # The exporter's options are options.
    m = re.search(r"^QDISC_OPTIONS\s*=\s*\[(.*?)^\]", exporter, re.S | re.M)
    exported = set(re.findall(r'^\s*\("(\w+)",', m.group(1), re.M)) \
        if m else set()
    tap.check(exported and exported <= names,
              "the exporter's QDISC_OPTIONS are options of ddl_opts[] (%s)"
              % show(exported), "not options: " + show(exported - names))

    # The module parameters: each the default of its option.
    mparams = re.findall(r"^DDL_MPARAM\((\w+),\s*(TCA_DDL_\w+),", debugfs,
                         re.M)
    bad = ["%s (%s)" % (n, a) for n, a in mparams
           if by_attr.get(a) != [n]]
    tap.check(mparams and not bad,
              "each module parameter of ddl_debugfs.c is named as its "
              "option in ddl_opts[] (%d)" % len(mparams),
              "misnamed: " + ", ".join(bad))
    row_of = {r.get("name"): r for r in rows}
    i = rst.find("**Module parameters**")
    mtable = rst_table(rst[i:]) if i >= 0 else []
    mnames = {c[0].strip("`") for c in mtable} - {"debugfs"}
    bad = []
    for c in mtable:
        r = row_of.get(c[0].strip("`"))
        if not r or len(c) < 3:
            continue
        rng = re.match(r"^(\d+) \.\. (\d+)", c[1])
        if rng and (int(rng.group(1)), int(rng.group(2))) != \
                (consts.value(r["min"]), consts.value(r["max"])):
            bad.append("%s: range %s" % (r["name"], c[1]))
        d = c[2].split(";")[0].split()[0] if c[2] else ""
        want = consts.value(r["def"])
        if d.isdigit():
            ok = int(d) == want
        elif d == "auto":
            ok = want == consts.value("TC_DDL_AUTO")
        else:
            ok = consts.enums.get(re.sub(r"_DEFAULT$", "", r["def"])) == \
                want and r["def"].lower().endswith("_" + d)
        if not ok:
            bad.append("%s: default %s" % (r["name"], d))
    mp = {n for n, _ in mparams}
    tap.check(mp and mnames == mp and not bad,
              "sch_ddl.rst's module parameters are ddl_debugfs.c's, with "
              "ddl_opts[]'s ranges and defaults",
              "; ".join(filter(None, [both_ways(mnames, mp, "sch_ddl.rst",
                                                "ddl_debugfs.c")] + bad)))
    files = "\n".join(man_sh.get("FILES", []))
    m = re.search(r"parameters/.*?\((.*?)\)", files, re.S)
    listed = set(re.findall(r"\w+", m.group(1))) if m else set()
    tap.check(mp and listed == mp,
              "tc-ddl.8's FILES lists the module parameters",
              both_ways(listed, mp, "tc-ddl.8", "ddl_debugfs.c"))

    # The fuzzer's model: numbers, sizes, ranges and defaults.
    ns = {}
    want = {"U32_MAX", "U64_MAX", "AUTO", "RATE_NONE", "ATTRS", "DEFAULTS"}
    try:
        tree = ast.parse(nlfuzz)
        tree.body = [n for n in tree.body if isinstance(n, ast.Assign) and
                     {t.id for t in ast.walk(n.targets[0])
                      if isinstance(t, ast.Name)} & want]
        exec(compile(tree, "nlfuzz.py", "exec"), ns)    # noqa: S102
    except (SyntaxError, NameError, TypeError) as e:
        ns["error"] = "nlfuzz.py: %s" % e
    bad = [ns["error"]] if "error" in ns else []
    for n, (num, size, lo, hi) in ns.get("ATTRS", {}).items():
        r = next((x for x in rows
                  if consts.enums.get(x.get("attr")) == num), None)
        if not r or r.get("name") != re.sub(r"_time$", "", n):
            bad.append("%s: attribute %d" % (n, num))
            continue
        if size != {"U32": 4, "U64": 8}.get(r.get("kind")) or \
                (lo, hi) != (consts.value(r["min"]), consts.value(r["max"])):
            bad.append("%s: %d bytes, %d..%d" % (n, size, lo, hi))
        if ns.get("DEFAULTS", {}).get(n) != consts.value(r["def"]):
            bad.append("%s: default %s" % (n, ns.get("DEFAULTS", {}).get(n)))
    tap.check(ns.get("ATTRS") and not bad,
              "tests/fuzz/nlfuzz.py's model has ddl_opts[]'s attributes, "
              "ranges and defaults (%d)" % len(ns.get("ATTRS", {})),
              "; ".join(bad))

    # The recipe names files that exist.
    m = re.search(r"^## Adding an option\n(.*?)(?=^## )", contrib,
                  re.S | re.M)
    paths = set(re.findall(r"`((?:kmod|include|tc-plugin|Documentation|sbin|"
                           r"tests)/[\w./-]+)`", m.group(1))) if m else set()
    missing = {x for x in paths if not os.path.exists(os.path.join(top, x))}
    tap.check(paths and not missing,
              "CONTRIBUTING.md's \"Adding an option\" names files that exist",
              "no such file: " + show(missing) if m else
              "no \"## Adding an option\" section")


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    man = read(top, "Documentation/tc-ddl.8")
    rst = read(top, "Documentation/sch_ddl.rst")
    plugin = read(top, "tc-plugin/q_ddl.c")
    uapi = read(top, "include/uapi/linux/sch_ddl.h")
    contrib = read(top, "CONTRIBUTING.md")

    n = len(man.rstrip("\n").split("\n"))
    tap.check(n <= MAN_MAX_LINES,
              "tc-ddl.8 is a reference of at most %d lines (%d)"
              % (MAN_MAX_LINES, n))

    try:
        r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                            os.path.join(top, "Documentation/tc-ddl.8")],
                           capture_output=True, text=True, check=False)
        why = r.stderr.strip().replace("\n", "; ") or \
            (r.returncode and "exit %d" % r.returncode)
    except OSError as e:
        why = str(e)
    tap.check(not why, "tc-ddl.8: groff -man -ww has nothing to say", why)

    sh, ss = man_sections(man)
    man_qd = man_params(sh.get("QDISC PARAMETERS", []))
    man_cl = man_params(sh.get("CLASS PARAMETERS", []))
    syn_qd, syn_cl = man_synopsis(sh.get("SYNOPSIS", []))
    funcs = c_functions(plugin)
    use_qd, use_cl = plugin_usage(funcs)
    parsed = plugin_parsed(plugin, funcs)

    for what, doc, use in (("qdisc", man_qd, use_qd),
                           ("class", man_cl, use_cl)):
        tap.check(use and doc == use,
                  "tc-ddl.8's %s PARAMETERS are the plugin's %s usage (%d)"
                  % (what.upper(), what, len(use)),
                  both_ways(doc, use, "tc-ddl.8", "the usage"))
    for what, syn, use in (("qdisc", syn_qd, use_qd), ("class", syn_cl, use_cl)):
        tap.check(use and syn == use,
                  "tc-ddl.8's SYNOPSIS of the %s is the plugin's usage" % what,
                  both_ways(syn, use, "the SYNOPSIS", "the usage"))
    tap.check(use_qd | use_cl and not (use_qd | use_cl) - parsed,
              "the plugin parses every keyword of its usage",
              "not parsed: " + show((use_qd | use_cl) - parsed))

    check_kernel_table(top, man_qd, rst, plugin, uapi, contrib, sh)
    for what, enum, amap, doc in (("class", "TCA_DDL_CLASS_", CLASS_ATTRS,
                                   man_cl),):
        body = re.search(r"enum\s*\{\s*%sUNSPEC\b(.*?)\}" % enum, uapi, re.S)
        attrs = set()
        if body:
            attrs = set(re.findall(r"^\s*%s(\w+)\s*[,=]" % enum, "%sUNSPEC,"
                                   % enum + body.group(1), re.M))
            attrs = {a for a in attrs if not a.startswith("_")}
        settable = attrs - UNSETTABLE
        unmapped = settable - set(amap)
        stale = set(amap) - settable
        tap.check(attrs and not unmapped and not stale,
                  "every %s attribute of the uapi header is mapped to an "
                  "option or unsettable (%d)" % (what, len(attrs)),
                  "; ".join(filter(None, [
                      unmapped and "new, add to doc_check.py's map: " +
                      show(enum + a for a in unmapped),
                      stale and "in the map, not in the header: " +
                      show(enum + a for a in stale)])))
        opts = {amap[a] for a in settable if a in amap}
        tap.check(opts and opts <= doc,
                  "every %s attribute's option is in tc-ddl.8" % what,
                  "not documented: " + show(opts - doc))
        names = {enum + a for a in attrs - {"UNSPEC"}}
        tap.check(names and all("``%s``" % a in rst for a in names),
                  "sch_ddl.rst names every %s attribute" % what,
                  "missing: " + show(a for a in names if "``%s``" % a not in rst))

    stat_funcs = [f for f in funcs if "xstats" in f or "hist" in f]
    qd_body = "".join(funcs[f] for f in stat_funcs if "qd" in f)
    cl_body = "".join(funcs[f] for f in stat_funcs
                      if "cl" in f or "hist" in f)
    for what, body in (("Qdisc", qd_body), ("Class", cl_body)):
        printed = plugin_stats(body)
        tags, words = man_stats(ss.get(("STATISTICS", what), []))
        tap.check(printed and printed <= words,
                  "tc-ddl.8's STATISTICS, %s, documents every name the plugin "
                  "prints (%d)" % (what, len(printed)),
                  "not documented: " + show(printed - words))
        tap.check(tags and tags <= printed,
                  "every name in tc-ddl.8's STATISTICS, %s, is printed" % what,
                  "not printed: " + show(tags - printed))

    units = core_units(top)
    core = rst_section(rst, "Core and glue")
    rst_units = set(re.findall(r"^\s*- ``(ddl_\w+\.c)``", core, re.M))
    tap.check(units and rst_units == units,
              "sch_ddl.rst's units are kmod/'s (%s)" % show(units),
              both_ways(rst_units, units, "sch_ddl.rst", "kmod/"))
    m = re.search(r"<!-- units -->(.*?)<!-- /units -->", contrib, re.S)
    md_units = set(re.findall(r"^\s*- `(ddl_\w+\.c)`", m.group(1), re.M)) \
        if m else set()
    tap.check(units and md_units == units,
              "CONTRIBUTING.md's units are kmod/'s",
              both_ways(md_units, units, "CONTRIBUTING.md", "kmod/")
              if m else "no <!-- units --> ... <!-- /units --> block")
    docs = re.findall(r"^\.\. kernel-doc::\s*(\S+)", rst, re.M)
    missing = {u for u in units if "kmod/" + u not in docs}
    absent = {d for d in docs if not os.path.exists(os.path.join(top, d))}
    tap.check(docs and not missing and not absent,
              "sch_ddl.rst's kernel-doc directives cover the units and name "
              "files that exist",
              "; ".join(filter(None, [
                  missing and "no directive: " + show(missing),
                  absent and "no such file: " + show(absent)])))

    docs = texts(top)
    check_units_everywhere(top, units, docs)
    check_functions(top, docs)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
