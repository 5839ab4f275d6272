#!/usr/bin/python3 -S
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark figures stay references:
#  - every table of Documentation/benchmarks.md follows a paragraph that
#    names the commit it was measured at and the command that produced it
#    (a backquoted `make TARGET` or a path such as `bench/ddl-bench …`);
#    inside a git work tree each such commit must exist;
#  - every figure of the README's tables is one of benchmarks.md's.
#
#   tests/benchmarks_check.py [TOP]     a result line per check, exit 1 on
#                                       a failure

import os
import re
import subprocess
import sys

import tap

COMMIT = re.compile(r'\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b')
COMMAND = re.compile(r'`(make [\w-]+|[\w.-]*/[\w./-]+)(\s[^`]*)?`')
FIGURE = re.compile(r'(?<![\w.])\d+\.\d+(?![\w.])')


def tables(lines):
    """Yield (line number, the paragraph before the table) per table."""
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
        yield i + 1, ' '.join(para)


def in_git(top):
    return subprocess.run(['git', '-C', top, 'rev-parse', '--git-dir'],
                          capture_output=True).returncode == 0


def is_commit(top, rev):
    return subprocess.run(['git', '-C', top, 'cat-file', '-e',
                           rev + '^{commit}'],
                          capture_output=True).returncode == 0


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    with open(os.path.join(top, 'Documentation/benchmarks.md')) as f:
        bench = f.read()
    with open(os.path.join(top, 'README.md')) as f:
        readme = f.read()
    git = in_git(top)
    bad = []
    n = 0
    for line, para in tables(bench.splitlines()):
        n += 1
        commits = COMMIT.findall(para)
        unknown = [c for c in commits if git and not is_commit(top, c)]
        if unknown:
            bad.append('line %d: no such commit %s'
                       % (line, ', '.join(unknown)))
        elif not commits or not COMMAND.search(para):
            bad.append('line %d: no commit or no command in "%s"'
                       % (line, para[:100]))
    tap.check(n and not bad,
              'benchmarks.md: each of its %d tables names its commit and '
              'command' % n, '; '.join(bad))

    known = set(FIGURE.findall(bench))
    rows = [l for l in readme.splitlines() if l.startswith('|')]
    figs = [x for l in rows for x in FIGURE.findall(l)]
    missing = sorted(set(figs) - known)
    tap.check(figs and not missing,
              "README's tables: each of their %d figures is one of "
              "benchmarks.md's" % len(figs),
              'not there: ' + ', '.join(missing))
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
