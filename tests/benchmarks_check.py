#!/usr/bin/python3 -S
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark figures stay references: one current table per benchmark,
# and the other texts quote those tables and nothing else.
#
# Documentation/benchmarks.md:
#  - every table follows a paragraph that names the commit it was measured
#    at and the command that produced it (a backquoted `make TARGET` or a
#    path such as `bench/ddl-bench …`); inside a git work tree each such
#    commit must exist;
#  - that paragraph ends with a line
#        <!-- benchmark: KEY; KEY ... -->
#    naming what the table measured, one KEY per preset:
#        PROGRAM [PRESET] [OVERRIDE...] [DDL-POLICY...]
#    PROGRAM is a file of bench/ (ddl-bench, bench-datapath, ...) whose
#    command (`bench/PROGRAM ...`, or `make PROGRAM`) is in the paragraph;
#    PRESET the preset or mode (saturated, --inkernel, ...) and each
#    OVERRIDE a word of that command that changes the workload or ddl's
#    configuration (update=1000000,3000000, ring=1, the words of
#    fabricopts="... tiers 4m", of ddlopts="epoch 100ms"); a DDL-POLICY a
#    policy that is ddl (ddl, ddl-cluster, ddl-dscp, ...), in the
#    command's policies= or, for a preset's default policies, in the
#    table.  The baselines a run compares (drr, fq_codel, prio, ...) and
#    policies= are never part of a key: a run of a preset against other
#    baselines is still a run of that preset;
#  - two tables with the same PROGRAM, PRESET and OVERRIDEs whose
#    DDL-POLICYs overlap (or that both have none) fail: the newer run
#    replaces the older table, whose figures stay in git history.
#  - it has at most MAX_LINES lines.
#
# A benchmark figure in the other texts (README.md, CONTRIBUTING.md,
# Documentation/sch_ddl.rst; code blocks, rst literal blocks and inline
# code left out) is, in a sentence that names none of KUnit, a *_test,
# GPS, or a model of any kind (fluid, simulated, scratch, line rate: its
# figures are not benchmark results):
#  - a ratio: a decimal number followed by "×", with the numbers listed or
#    ranged before it ("0.99 and 0.98 ×", "1.12-1.25 ×");
#  - a cost per packet: a number followed by ns or µs in a sentence that
#    says "packet" or "ns/pkt";
#  - a packet rate: a number followed by "packets per second" or "pps";
#  - a measured rate: "measured [at|about] N Mbit/s" (or Gbit/s);
#  - a gain or loss in per cent: "gains 11 %", "costs 3 %", "lose 5 %",
#    "2 % faster" (slower, sooner, later);
#  - and every number of a row of the README's Markdown tables.
# Each must be one of benchmarks.md's figures, written as there (no
# rounding: quote 0.937, not 0.94; per cent with its "%"); where the
# paragraph or list item links a section of benchmarks.md
# (benchmarks.md#anchor) or names one (``benchmarks.md``, "fabric"),
# one of that section's.  Every such link or name must exist.
#
# make check's result (its "N passed" and its time, "N min N s", in a
# table row, or a sentence's clause up to a ";", that names `make check`
# itself, not check-quick and the like) is given once: one figure of each,
# and one time from a cold cache (a clause that says "cold"), in one of
# those texts.
#
#   tests/benchmarks_check.py [TOP]     a result line per check, exit 1 on
#                                       a failure

import os
import re
import shlex
import subprocess
import sys

import tap

# One current table per benchmark fits in this many lines.
MAX_LINES = 600

COMMIT = re.compile(r'\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b')
COMMAND = re.compile(r'`(make [\w-]+|[\w.-]*/[\w./-]+)(\s[^`]*)?`')
FIGURE = re.compile(r'(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)')
DECIMAL = re.compile(r'(?<![\w.])\d+\.\d+(?!\w|\.\d)')
MARKER = re.compile(r'^<!--\s*benchmark:\s*(.*?)\s*-->\s*$')
BASELINES = {'drr', 'fq_codel', 'fq', 'prio', 'fifo', 'pfifo', 'pfifo_fast',
             'ets', 'tbf'}
DDL_POLICY = re.compile(r'^ddl(-[a-z0-9-]+)?$')
TEXTS = ('README.md', 'CONTRIBUTING.md', 'Documentation/sch_ddl.rst')

# A sentence that names one of these gives figures that are not benchmark
# results (KUnit's, a model's, GPS's).
NOT_BENCH = re.compile(r'KUnit|_test\b|\bGPS\b|\bfluid\b|'
                       r'\bsimulated\b|\bscratch\b|\bmodel\b')
NUM = r'\d+(?:\.\d+)?'
DEC_RANGE = r'\d+\.\d+(?:\s*[-–]\s*\d+\.\d+)?'
RATIO = re.compile(r'(?<![\w.])%s(?:\s*(?:,\s*and|,|and)\s*%s)*\s*×'
                   % (DEC_RANGE, DEC_RANGE))
PER_PACKET = re.compile(r'(?<![\w.])(%s)(?:\s*[-–]\s*(%s))?\s*(?:ns|µs)\b'
                        % (NUM, NUM))
PPS = re.compile(r'(?<![\w.])(%s)\s*(?:packets per second|pps)\b' % NUM)
RATE = re.compile(r'\bmeasured\s+(?:at\s+|about\s+)?(%s)\s*[MG]bit/s' % NUM)
GAIN = re.compile(r'\b(?:gains?|gained|costs?|lose|loses|lost|saves?|saved)'
                  r'\s+(?:about\s+|only\s+|them\s+)?(%s)\s*%%' % NUM)
GAIN2 = re.compile(r'(?<![\w.])(%s)\s*%%\s+(?:faster|slower|sooner|later)\b'
                   % NUM)
PERCENT = re.compile(r'(?<![\w.])(%s)\s*%%' % NUM)
LINK = re.compile(r'benchmarks\.md#([\w-]+)')
NAMED = re.compile(r'benchmarks\.md`{0,2},?\s*"([^"]+)"')


def tables(lines):
    """Yield (line number, the paragraph before the table, the table) per
    table."""
    for i, line in enumerate(lines):
        if not line.startswith('|') or (i and lines[i - 1].startswith('|')):
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        para = []
        while j >= 0 and lines[j].strip() and not lines[j].startswith('|'):
            para.insert(0, lines[j])
            j -= 1
        k = i
        while k < len(lines) and lines[k].startswith('|'):
            k += 1
        yield i + 1, para, lines[i:k]


def in_git(top):
    return subprocess.run(['git', '-C', top, 'rev-parse', '--git-dir'],
                          capture_output=True).returncode == 0


def is_commit(top, rev):
    return subprocess.run(['git', '-C', top, 'cat-file', '-e',
                           rev + '^{commit}'],
                          capture_output=True).returncode == 0


def commands(para):
    """{program: (its words, its policies)} of the backquoted commands of a
    paragraph: `bench/PROGRAM ...` or `make TARGET ...`.  Its words are the
    positional arguments, the options, each NAME=VALUE and the words of
    its VALUE; its policies the words of policies=."""
    out = {}
    for cmd in re.findall(r'`((?:bench/|make )[^`]*)`', para):
        try:
            toks = shlex.split(cmd.replace('\u2026', '...'))
        except ValueError:
            toks = cmd.split()
        prog = toks[0].split('/')[-1] if toks[0] != 'make' else \
            (toks[1] if len(toks) > 1 else '')
        words, pols = out.setdefault(prog, (set(), set()))
        for tok in toks[1:]:
            name, eq, value = tok.partition('=')
            if eq and name == 'policies':
                pols.update(value.split())
            elif eq:
                words.add('%s=%s' % (name, value))
                words.update(value.split())
            else:
                words.add(tok)
    return out


def parse_keys(top, marker, para, table):
    """The keys of a marker as (key, program, words, ddl policies), and
    what is wrong with them."""
    keys, why = [], []
    cmds = commands(para)
    for key in filter(None, (k.strip() for k in marker.split(';'))):
        words = key.split()
        prog, rest = words[0], words[1:]
        pols = {w for w in rest if DDL_POLICY.match(w)}
        other = [w for w in rest if not DDL_POLICY.match(w)]
        if not os.path.isfile(os.path.join(top, 'bench', prog)):
            why.append('"%s": no bench/%s' % (key, prog))
        if prog not in cmds:
            why.append('"%s": no command of %s in its paragraph'
                       % (key, prog))
            continue
        cwords, cpols = cmds[prog]
        bad = [w for w in rest if w in BASELINES or w.startswith('policies')]
        if bad:
            why.append('"%s": %s is no part of a key (a baseline)'
                       % (key, ', '.join(bad)))
        absent = [w for w in other if w not in cwords]
        if absent:
            why.append('"%s": %s not a word of its command'
                       % (key, ', '.join(absent)))
        absent = [p for p in pols if p not in cpols and
                  not re.search(r'(?<![\w-])%s(?![\w-])' % re.escape(p),
                                table)]
        if absent:
            why.append('"%s": %s not in its command nor its table'
                       % (key, ', '.join(absent)))
        keys.append((key, prog, frozenset(other), frozenset(pols)))
    return keys, why


def check_tables(top, bench):
    git = in_git(top)
    bad, nokey, seen, dups = [], [], [], []
    n = 0
    for line, para, rows in tables(bench.splitlines()):
        n += 1
        text = ' '.join(para)
        commits = COMMIT.findall(text)
        unknown = [c for c in commits if git and not is_commit(top, c)]
        if unknown:
            bad.append('line %d: no such commit %s'
                       % (line, ', '.join(unknown)))
        elif not commits or not COMMAND.search(text):
            bad.append('line %d: no commit or no command in "%s"'
                       % (line, text[:100]))
        m = MARKER.match(para[-1]) if para else None
        if not m:
            nokey.append('line %d: no <!-- benchmark: ... --> line before it'
                         % line)
            continue
        keys, why = parse_keys(top, m.group(1), text, '\n'.join(rows))
        nokey += ['line %d: %s' % (line, w) for w in why]
        for key, prog, other, pols in keys:
            for line2, key2, prog2, other2, pols2 in seen:
                if prog == prog2 and other == other2 and \
                   (pols & pols2 or not pols and not pols2):
                    dups.append('"%s" at line %d and "%s" at line %d'
                                % (key2, line2, key, line))
            seen.append((line, key, prog, other, pols))
    tap.check(n and not bad,
              'benchmarks.md: each of its %d tables names its commit and '
              'command' % n, '; '.join(bad))
    tap.check(n and not nokey,
              'benchmarks.md: each table names what it measured '
              '(<!-- benchmark: ... -->)', '; '.join(nokey))
    tap.check(seen and not dups,
              'benchmarks.md: one table per benchmark and preset (%d)'
              % len(seen),
              'two tables: ' + '; '.join(dups))


# --- the other texts ------------------------------------------------------

def plain(s):
    return re.sub(r'[`*]', '', s).strip()


def slug(title):
    """GitHub's anchor for a heading."""
    s = plain(title).lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def sections(bench):
    """[(title, slug, text)] per heading, the text up to the next heading
    of the same or a higher level."""
    lines = bench.splitlines()
    heads = [(i, len(m.group(1)), m.group(2))
             for i, line in enumerate(lines)
             for m in [re.match(r'^(#+)\s+(.*)$', line)] if m]
    out = []
    for k, (i, level, title) in enumerate(heads):
        end = len(lines)
        for i2, level2, _ in heads[k + 1:]:
            if level2 <= level:
                end = i2
                break
        out.append((plain(title), slug(title), '\n'.join(lines[i:end])))
    return out


def prose(path, src):
    """The text's paragraphs and list items, as lists of lines, with code
    blocks (``` fences, rst literal blocks) and HTML comments left out."""
    src = re.sub(r'<!--.*?-->', '', src, flags=re.S)
    lines = src.split('\n')
    keep, fence, lit = [], False, None
    for line in lines:
        if line.startswith('```'):
            fence = not fence
            keep.append('')
            continue
        if fence:
            keep.append('')
            continue
        ind = len(line) - len(line.lstrip())
        if lit is not None:
            if not line.strip() or ind > lit:
                keep.append('')
                continue
            lit = None
        if path.endswith('.rst') and line.rstrip().endswith('::'):
            lit = ind
            keep.append(line.rstrip()[:-2])
            continue
        keep.append(line)
    units, cur = [], []
    for line in keep:
        if not line.strip() or line.startswith('|'):
            if cur:
                units.append(cur)
            cur = []
            continue
        if re.match(r'^\s*(?:[-*]|\d+\.)\s', line) and cur:
            units.append(cur)
            cur = []
        cur.append(line)
    if cur:
        units.append(cur)
    return units


def sentences(text):
    return re.split(r'(?<=[.!?])\s+(?=[A-Z`])', text)


def figures(sentence):
    """The benchmark figures of a sentence: [(shown, number)]."""
    if NOT_BENCH.search(sentence):
        return []
    s = re.sub(r'``[^`]*``|`[^`]*`', ' CODE ', sentence)
    s = re.sub(r'\s+', ' ', s)
    out = []
    for m in RATIO.finditer(s):
        out += [(m.group(0), x) for x in DECIMAL.findall(m.group(0))]
    if re.search(r'packet|ns/pkt', s):
        for m in PER_PACKET.finditer(s):
            out += [(m.group(0), x) for x in m.groups() if x]
    out += [(m.group(0), m.group(1)) for m in PPS.finditer(s)]
    out += [(m.group(0), m.group(1)) for m in RATE.finditer(s)]
    out += [(m.group(0), m.group(1) + ' %') for m in GAIN.finditer(s)]
    out += [(m.group(0), m.group(1) + ' %') for m in GAIN2.finditer(s)]
    return out


def known(text):
    nums = set(FIGURE.findall(text))
    nums |= {m.group(1) + ' %' for m in PERCENT.finditer(text)}
    return nums


def check_texts(top, bench):
    secs = sections(bench)
    by_slug = {s: known(t) for _, s, t in secs}
    everywhere = known(bench)
    stray, dangling, count = [], [], 0
    for path in TEXTS:
        with open(os.path.join(top, path)) as f:
            src = f.read()
        if path == 'README.md':
            for line in src.splitlines():
                if line.startswith('|'):
                    for x in DECIMAL.findall(line):
                        count += 1
                        if x not in everywhere:
                            stray.append('%s: "%s" in its table' % (path, x))
        for unit in prose(path, src):
            text = ' '.join(l.strip() for l in unit)
            scope, names = set(), []
            for a in LINK.findall(text):
                if a not in by_slug:
                    dangling.append('%s: benchmarks.md#%s' % (path, a))
                else:
                    scope |= by_slug[a]
                    names.append('#' + a)
            for name in NAMED.findall(text):
                hit = [t for t, _, _ in secs
                       if t.lower().startswith(plain(name).lower())]
                if not hit:
                    dangling.append('%s: benchmarks.md, "%s"' % (path, name))
                else:
                    for t, s, body in secs:
                        if t in hit:
                            scope |= known(body)
                    names.append('"%s"' % name)
            for sent in sentences(text):
                for shown, x in figures(sent):
                    count += 1
                    if x not in (scope or everywhere):
                        stray.append('%s: "%s"%s' % (
                            path, shown.strip(),
                            ' (not in %s)' % ', '.join(names) if scope
                            else ''))
    tap.check(not dangling,
              'the texts name sections of benchmarks.md that exist',
              'no such section: ' + '; '.join(dangling))
    tap.check(count and not stray,
              'the benchmark figures of %s: each of their %d is one of '
              "benchmarks.md's" % (', '.join(TEXTS), count),
              'not there: ' + '; '.join(stray))


def check_make_check(top):
    """make check's result: one pass count and one time, in one text."""
    said = {}
    for path in TEXTS:
        with open(os.path.join(top, path)) as f:
            src = f.read()
        units = [c for unit in prose(path, src)
                 for u in sentences(' '.join(l.strip() for l in unit))
                 for c in u.split(';')]
        units += [l for l in src.splitlines() if l.startswith('|')]
        for u in units:
            if not re.search(r'make check\b(?!-)', u):
                continue
            for x in re.findall(r'(\d+) passed', u):
                said.setdefault(('passed', x), set()).add(path)
            kind = 'cold' if re.search(r'\bcold\b', u) else 'time'
            for x in re.findall(r'\b(\d+ min(?: \d+ s)?)\b', u):
                said.setdefault((kind, x), set()).add(path)
    counts = sorted(x for k, x in said if k == 'passed')
    times = sorted(x for k, x in said if k == 'time')
    colds = sorted(x for k, x in said if k == 'cold')
    where = set().union(*said.values()) if said else set()
    tap.check(len(counts) <= 1 and len(times) <= 1 and len(colds) <= 1 and
              len(where) <= 1,
              "make check's result is given once (%s)"
              % ', '.join(counts + times + colds),
              'pass counts %s, times %s, cold %s, in %s'
              % (counts, times, colds, ', '.join(sorted(where))))


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    with open(os.path.join(top, 'Documentation/benchmarks.md')) as f:
        bench = f.read()
    check_tables(top, bench)
    lines = bench.count('\n')
    tap.check(lines <= MAX_LINES,
              'benchmarks.md has at most %d lines (%d)' % (MAX_LINES, lines),
              'older runs belong in git history')
    check_texts(top, bench)
    check_make_check(top)
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
