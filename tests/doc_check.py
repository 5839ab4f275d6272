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
- every attribute of include/uapi/linux/sch_ddl.h is either one an option
  sets (ATTRS below: a new attribute must be added there) or one nobody
  sets (UNSETTABLE), the option is in tc-ddl.8, and sch_ddl.rst's netlink
  table names the attribute;
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
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402

MAN_MAX_LINES = 500

# Attribute (without TCA_DDL_ / TCA_DDL_CLASS_) -> the option that sets it.
ATTRS = {
    "LIMIT": "limit",
    "MEMORY_LIMIT": "memory_limit",
    "JOBS": "jobs",
    "MODE": "mode",
    "SLICE": "slice",
    "YIELD": "yield",
    "MAXWAIT": "maxwait",
    "BGSHARE": "bgshare",
    "KEY": "key",
    "KEYTTL": "keyttl",
    "RATE": "rate",
    "BURST": "burst",
    "TARGET": "target",
    "TARGET_TIME": "target",
    "INTERVAL": "interval",
    "ECN": "ecn",
    "LEAD": "lead",
    "MAXPERIOD": "maxperiod",
    "EPOCH": "epoch",
    "BASE": "base",
    "DSCP": "dscp",
    "SHUFFLE": "shuffle",
    "TIERS": "tiers",
}
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

    for what, enum, amap, doc in (("qdisc", "TCA_DDL_", ATTRS, man_qd),
                                  ("class", "TCA_DDL_CLASS_", CLASS_ATTRS,
                                   man_cl)):
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
