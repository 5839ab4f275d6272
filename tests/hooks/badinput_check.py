#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bad inputs to each entry point, as a table: the Slurm prolog and epilog,
sch-ddl-job, the CNI plugin sch-ddl-cni and sch-ddl-apply.  Each row is
run against the real program on a made-up host (tests/hooks/hooks_test.py's
Host: the made-up tc, a logger writing to a file, temporary state), and
gives its exit status and the one line it logs (or prints on stderr or
stdout), which must match the row's; the hooks exit 0, every line they
log carries the job id, and nothing ends in a traceback.  A row run as
nobody is skipped when not run as root, one with no sch-ddl-job when one
is installed on the system's PATH.

The same table is Documentation/sch-ddl-job.8's BAD INPUT: --doc prints
it as the page's roff, and the check fails when the page's differs.
"..." in a row's line stands for any text.  One "ok - ", "not ok - " or
"skip - " line per row.

    python3 tests/hooks/badinput_check.py [--doc]
"""

import collections
import concurrent.futures
import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hooks_test import (APPLY, EPILOG, JOB, PROLOG, SYS_PATH,  # noqa: E402
                        TOP, Host)
import tap  # noqa: E402

CNI = os.path.join(TOP, "sbin", "sch-ddl-cni")
MAN = os.path.join(TOP, "Documentation", "sch-ddl-job.8")
BEGIN = '.\\" BEGIN BAD INPUT (tests/hooks/badinput_check.py --doc)'
END = '.\\" END BAD INPUT'
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

# What a row runs unless it says otherwise.
SLURM_JOB = "42"
POD_JOB = "llm-7"
POD_ADDR = "198.18.4.2/24"
POD_CID = "c1"
APPLY_DEV = "eth0"
NO_DDL = "ddl as its root qdisc or on every queue under mq or mqprio"

# entry: the program; input: the bad input in words; run(host) ->
# (status, {"syslog"|"stderr"|"stdout": [lines]}); status: its exit
# status; where, line: the one line it gives, or None: nothing at all;
# job: the job id each line of a Slurm hook starts with.
Row = collections.namedtuple("Row", "entry input run status where line job")


# --- the made-up host's conditions -------------------------------------

def hold_lock(h):
    """Another sch-ddl-job holds the host's lock: this process does."""
    os.makedirs(h.state, exist_ok=True)
    f = open(os.path.join(h.state, ".lock"), "w")
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def prolog_first(h):
    """The prolog bound the job (and made its cgroup)."""
    subprocess.run([PROLOG], env=dict(h.env, SLURM_JOB_ID=SLURM_JOB),
                   capture_output=True, timeout=30)
    h.write("syslog", "")


def bound_first(h):
    """Job 42 bound by root; the made-up host open to nobody."""
    subprocess.run([JOB, "bind", SLURM_JOB], env=h.env, capture_output=True,
                   timeout=30)
    os.chmod(h.d, 0o755)


# name: (words, Host() keywords, what to do to the host)
SETUPS = {
    "lock": ("another sch-ddl-job holds the host's lock", {}, hold_lock),
    "noddl": ("no ddl qdisc (no module)", {},
              lambda h: h.write("mode", "none\n")),
    "hang": ("tc hangs", {}, lambda h: h.write("mode", "hang\n")),
    "mqjobs": ("mq on eth0, the ddl of queue 1:3 has 8 jobs, the others "
               "16", {}, lambda h: h.write("mode", "mqjobs\n")),
    "mqdefault": ("mq on eth0, the queues' ddl made by mq (no handle)", {},
                  lambda h: h.write("mode", "mqdefault\n")),
    "nojob": ("no sch-ddl-job", {"job": False}, None),
    "nologger": ("no logger", {"logger": False}, None),
    "defaults": ("the defaults file: SCH_DDL_SLURM_CGROUP=(", {},
                 lambda h: h.write("defaults", "SCH_DDL_SLURM_CGROUP=(\n")),
    "prolog": ("after the prolog", {}, prolog_first),
    "bound": ("as nobody, job 42 bound", {}, bound_first),
    "unbound": ("job 42 not bound", {}, None),
    "never": ("container c1 never added", {}, None),
}


def execute(h, cmd, env, stdin=None):
    """(status, {channel: lines}); status None when it hung (20 s)."""
    try:
        p = subprocess.run(cmd, env=dict(h.env, **env), input=stdin,
                           capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else ""
        return None, {"syslog": [], "stderr": [], "stdout":
                      out.splitlines()}
    return p.returncode, {"syslog": h.read("syslog").splitlines(),
                          "stderr": p.stderr.splitlines(),
                          "stdout": p.stdout.splitlines()}


def on_host(setup, cmd, env, stdin=None, prepare=None):
    """run(host) for a row: SETUP applied to the made-up host, then CMD
    run with ENV ("@D" in them is the host's directory).  run.host: the
    Host() it needs."""
    def run(h):
        fn = SETUPS[setup][2] if setup else None
        held = fn(h) if fn else None
        if prepare:
            prepare(h)
        try:
            return execute(h, [c.replace("@D", h.d) for c in cmd],
                           {k: v.replace("@D", h.d) for k, v in env.items()},
                           stdin)
        finally:
            if held:
                held.close()
    run.host = SETUPS[setup][1] if setup else {}
    run.cmd = cmd
    return run


def words(setup, env, *given):
    """A row's input in words: what it was given, the host's condition,
    the environment."""
    parts = [g for g in given if g]
    parts += [SETUPS[setup][0]] if setup else []
    parts += ["%s=%s" % kv for kv in sorted(env.items())]
    return ", ".join(parts)


# --- one maker per entry point --------------------------------------------

def slurm(hook, where, line, comment=None, job=SLURM_JOB, env=None,
          setup=None):
    """A Slurm hook's row: exit status 0 always."""
    env = dict(env or {}, SLURM_JOB_ID=job)
    if comment is not None:
        env["SLURM_JOB_COMMENT"] = comment
    shown = {k: v for k, v in env.items()
             if k not in ("SLURM_JOB_COMMENT", "SLURM_JOB_ID")}
    return Row(os.path.basename(hook),
               words(setup, shown,
                     "comment %s" % comment if comment is not None else "",
                     "SLURM_JOB_ID=%s" % job if job != SLURM_JOB else ""),
               on_host(setup, [hook], env), 0, where, line, job)


def prolog(*a, **kw):
    return slurm(PROLOG, *a, **kw)


def epilog(*a, **kw):
    return slurm(EPILOG, *a, **kw)


def job(args, status, line, env=None, setup=None, where="stderr"):
    env = env or {}
    cmd = ([] if setup != "bound" else NOBODY) + [JOB] + args
    return Row("sch-ddl-job", words(setup, env, " ".join(map(shlex.quote,
                                                               args))),
               on_host(setup, cmd, env), status, where if line else None,
               line, None)


def cni(command, where, line, status=0, ann={}, cni_args="", stdin=None,
        prev=True, cid=POD_CID, env=None, setup=None):
    """The CNI plugin's row: a pod of job POD_JOB (annotation
    sch-ddl.io/job, and ANN; None: no annotations) with POD_ADDR in
    prevResult (PREV in its place; None: none), unless STDIN."""
    conf = {"cniVersion": "1.0.0", "name": "ddlbr", "type": "sch-ddl"}
    if prev is True:
        conf["prevResult"] = {"cniVersion": "1.0.0",
                              "interfaces": [{"name": "eth0"}],
                              "ips": [{"address": POD_ADDR,
                                       "interface": 0}]}
    elif prev is not None:
        conf["prevResult"] = prev
    if ann is not None:
        conf["runtimeConfig"] = {"io.kubernetes.cri.pod-annotations":
                                 dict({"sch-ddl.io/job": POD_JOB}, **ann)}
    shown = dict(env or {})
    env = dict(shown, CNI_COMMAND=command, CNI_NETNS="/run/netns/x",
               CNI_IFNAME="eth0", CNI_PATH="/usr/lib/cni", CNI_ARGS=cni_args,
               SCH_DDL_CNI_STATE="@D/cni")
    env.setdefault("SCH_DDL_JOB", JOB)
    if cid:
        env["CNI_CONTAINERID"] = cid
    what = [command,
            ", ".join("annotation %s: %s" % kv for kv in (ann or {}).items()),
            "no annotations" if ann is None and stdin is None else "",
            "CNI_ARGS=%s" % cni_args if cni_args else "",
            "stdin %s" % stdin if stdin is not None else "",
            "no prevResult" if prev is None else
            "prevResult %s" % json.dumps(prev) if prev is not True else "",
            "no CNI_CONTAINERID" if not cid else ""]
    return Row("sch-ddl-cni", words(setup, shown, *what),
               on_host(setup, [sys.executable, "-S", CNI], env,
                       stdin if stdin is not None else json.dumps(conf)),
               status, where if line else None, line, None)


def apply(content, line, status=1, what=None):
    """sch-ddl-apply -n -f FILE eth0, FILE holding CONTENT (bytes; None:
    no FILE; Ellipsis: FILE a directory)."""
    def prepare(h):
        path = os.path.join(h.d, "eth0.conf")
        if content is Ellipsis:
            os.mkdir(path)
        elif content is not None:
            with open(path, "wb") as f:
                f.write(content)
    if what is None:
        what = "FILE %s" % content.decode("ascii", "backslashreplace") \
            .replace("\n", "\\n")
    return Row("sch-ddl-apply", what,
               on_host(None, [APPLY, "-n", "-f", "@D/eth0.conf", APPLY_DEV],
                       {}, prepare=prepare),
               status, "stderr", line, None)


# --- the table ------------------------------------------------------------

WARN_SIZE = ("sch-ddl-job: job 42: warning: job 42: size '%s' is not a size "
             "(...); bound with size 0")
WARN_WEIGHT = ("sch-ddl-job: job 42: warning: job 42: weight '%s' is not a "
               "whole number from 1 to 256; bound with weight 1")
POD = "sch-ddl-cni: job llm-7: container c1 198.18.4.2: "
POD_BOUND = POD + "bound job llm-7 to class 1:9 on eth0; "
LOCK = ".../.lock held by another sch-ddl-job for 0.5 s; nothing done"
QUICK_LOCK = {"SCH_DDL_JOB_LOCK_WAIT": "0.5"}

ROWS = [
    prolog("syslog", WARN_SIZE % "abc", "ddl-size=abc"),
    prolog("syslog", WARN_SIZE % "1.5g", "ddl-size=1.5g"),
    prolog("syslog", WARN_SIZE % "-5", "ddl-size=-5"),
    prolog("syslog", WARN_SIZE % "-2m", "ddl-size=-2m"),
    prolog("syslog", WARN_SIZE % "'2m", "ddl-size='2m"),
    prolog("syslog", "sch-ddl-job: job 42: bound job 42 to class 1:b on eth0",
           "DDL-SIZE=2m"),
    prolog("syslog", "sch-ddl-job: job 42: bound job 42 to class 1:b on eth0",
           'ddl-size="2m"'),
    prolog("syslog", "sch-ddl-job: job 42: warning: job 42: size '2t' is "
           "2199023255552 bytes, over the kernel's maximum 1t "
           "(1099511627776); bound with size 0", "ddl-size=2t"),
    prolog("syslog", WARN_WEIGHT % "9999", "ddl-weight=9999"),
    prolog("syslog", WARN_WEIGHT % "0", "ddl-weight=0"),
    prolog("syslog", WARN_WEIGHT % "\u00b2", "ddl-weight=\u00b2"),
    prolog("syslog", WARN_WEIGHT % "--help", "ddl-weight=--help"),
    prolog("syslog", "sch-ddl-job: job 42: .../defaults is broken "
           "(status ...); ignored", setup="defaults"),
    prolog("syslog", "sch-ddl-job: job 42: not bound (status 5): " + LOCK,
           "ddl-size=1m", env=QUICK_LOCK, setup="lock"),
    prolog("syslog", "sch-ddl-job: job 42: not bound (status 4): no device "
           "has " + NO_DDL, "ddl-size=1m", setup="noddl"),
    prolog("syslog", "sch-ddl-job: job 42: not bound (status 1): cannot run "
           "/nonexistent/tc: No such file or directory",
           env={"TC": "/nonexistent/tc"}),
    prolog("syslog", "sch-ddl-job: job 42: sch-ddl-job not found; not bound",
           setup="nojob"),
    prolog("syslog", "sch-ddl-job: job 42: not bound (status 124): "
           "sch-ddl-job timed out after 1 s",
           env={"SCH_DDL_SLURM_TIMEOUT": "1"}, setup="hang"),
    prolog("syslog", "sch-ddl-job: job 42: SCH_DDL_SLURM_TIMEOUT 'x' is not "
           "a number of seconds; 20 used",
           env={"SCH_DDL_SLURM_TIMEOUT": "x"}),
    prolog("syslog", "sch-ddl-job: job 42: not bound (status 2): "
           "SCH_DDL_JOB_LOCK_WAIT 'x' is not a number of seconds (...)",
           env={"SCH_DDL_JOB_LOCK_WAIT": "x"}),
    prolog("stderr", WARN_SIZE % "abc", "ddl-size=abc", setup="nologger"),
    prolog("syslog", "sch-ddl-job: job 1;rm: not a job id; nothing done",
           job="1;rm"),
    prolog("syslog", "sch-ddl-job: job -h: not a job id; nothing done",
           job="-h"),
    prolog(None, None, job=""),

    epilog("syslog", "sch-ddl-job: job 42: not bound", setup="unbound"),
    epilog("syslog", "sch-ddl-job: job 42: not unbound (status 1): cannot "
           "run /nonexistent/tc: No such file or directory",
           env={"TC": "/nonexistent/tc"}, setup="prolog"),
    epilog("syslog", "sch-ddl-job: job 42: not unbound (status 5): " + LOCK,
           env=QUICK_LOCK, setup="lock"),
    epilog("syslog", "sch-ddl-job: job 42: sch-ddl-job not found; not "
           "unbound", setup="nojob"),
    epilog("syslog", "sch-ddl-job: job 42: SCH_DDL_SLURM_TIMEOUT 'x' is not "
           "a number of seconds; 20 used",
           env={"SCH_DDL_SLURM_TIMEOUT": "x"}),
    epilog("syslog", "sch-ddl-job: job --help: not a job id; nothing done",
           job="--help"),

    job(["bind", "42", "--size", "abc"], 2, "sch-ddl-job: size 'abc' is not "
        "a size (...) (see sch-ddl-job --help)"),
    job(["bind", "42", "--size", "abc", "--lenient"], 0,
        "sch-ddl-job: warning: job 42: size 'abc' is not a size (...); bound "
        "with size 0"),
    job(["bind", "42", "--size", "2t"], 2, "sch-ddl-job: size '2t' is "
        "2199023255552 bytes, over the kernel's maximum 1t (1099511627776) "
        "(see sch-ddl-job --help)"),
    job(["bind", "42", "--size", "-2m"], 2, "sch-ddl-job: argument --size: "
        "expected one argument (see sch-ddl-job --help)"),
    job(["bind", "42", "--size=-2m", "--lenient"], 0, "sch-ddl-job: warning: "
        "job 42: size '-2m' is not a size (...); bound with size 0"),
    job(["bind", "42", "--weight", "0"], 2, "sch-ddl-job: weight '0' is not a "
        "whole number from 1 to 256 (see sch-ddl-job --help)"),
    job(["bind", "42", "--weight", "0", "--lenient"], 0, "sch-ddl-job: "
        "warning: job 42: weight '0' is not a whole number from 1 to 256; "
        "bound with weight 1"),
    job(["bind", "42", "--weight", "\u00b2"], 2, "sch-ddl-job: weight "
        "'\u00b2' is not a whole number from 1 to 256 (see sch-ddl-job "
        "--help)"),
    job(["bind", "42", "--addr", "198.18.4.2/24"], 2, "sch-ddl-job: addr "
        "'198.18.4.2/24' is no IPv4 or IPv6 address (see sch-ddl-job "
        "--help)"),
    job(["bind", "42", "--addr", "198.18.4.2/24", "--lenient"], 0,
        "sch-ddl-job: warning: job 42: addr '198.18.4.2/24' is no IPv4 or "
        "IPv6 address; bound without it"),
    job(["bind", "42", "--cgroup", "/nonexistent", "--wait", "nan"], 2,
        "sch-ddl-job: argument --wait: not a number of seconds: 'nan' (see "
        "sch-ddl-job --help)"),
    job(["bind", "42"], 2, "sch-ddl-job: SCH_DDL_JOB_LOCK_WAIT 'x' is not a "
        "number of seconds (see sch-ddl-job --help)",
        env={"SCH_DDL_JOB_LOCK_WAIT": "x"}),
    job(["bind", "42"], 5, "sch-ddl-job: " + LOCK, env=QUICK_LOCK,
        setup="lock"),
    job(["bind", "42"], 4, "sch-ddl-job: no device has " + NO_DDL,
        setup="noddl"),
    job(["bind", "42"], 1, "sch-ddl-job: eth0: its queues' ddl qdiscs differ "
        "in jobs (jobs 8 on 8003:; jobs 16 on 8001: 8002: 8004:): a job "
        "would get another class on each; nothing bound", setup="mqjobs"),
    job(["bind", "42"], 1, "sch-ddl-job: eth0: the ddl on queue 1:1 has no "
        "handle of its own (mq made it), so tc cannot reach its classes: "
        "give each queue's ddl a handle (tc qdisc replace dev eth0 parent "
        "1:1 handle H: ddl ...); nothing bound", setup="mqdefault"),
    job(["bind", ""], 2, "sch-ddl-job: empty job id (see sch-ddl-job "
        "--help)"),
    job(["unbind", "42"], 0, None),
    job(["class", "42", "--jobs", "0"], 2, "sch-ddl-job: argument --jobs: a "
        "number of jobs from 1 to 65534 (see sch-ddl-job --help)"),
    job(["list"], 0, None, setup="bound"),
    job(["bind", "42"], 1, "sch-ddl-job: Permission denied: .../.lock",
        setup="bound"),
    job(["gc"], 1, "sch-ddl-job: Permission denied: .../.lock",
        setup="bound"),
    job(["list"], 1, "sch-ddl-job: cannot run /nonexistent/tc: No such file "
        "or directory", env={"TC": "/nonexistent/tc"}),
    job(["run", "42", "--size", "abc", "--", "true"], 0, "sch-ddl-job: "
        "warning: job 42: size 'abc' is not a size (...); bound with size "
        "0"),
    job(["run", "42", "--", "/nonexistent/cmd"], 127, "sch-ddl-job: "
        "/nonexistent/cmd: No such file or directory"),
    job(["run", "a/b", "--", "true"], 2, "sch-ddl-job: run: job id 'a/b' "
        "cannot name a cgroup"),

    cni("ADD", "syslog", POD_BOUND + "sch-ddl-job: warning: job llm-7: size "
        "'abc' is not a size (...); bound with size 0",
        ann={"sch-ddl.io/size": "abc"}),
    cni("ADD", "syslog", POD_BOUND + "sch-ddl-job: warning: job llm-7: size "
        "'-2m' is not a size (...); bound with size 0",
        ann={"sch-ddl.io/size": "-2m"}),
    cni("CHECK", "syslog", POD_BOUND + "sch-ddl-job: warning: job llm-7: "
        "weight '0' is not a whole number from 1 to 256; bound with weight 1",
        ann={"sch-ddl.io/weight": "0"}),
    cni("ADD", "syslog", "sch-ddl-cni: job --help: container c1 198.18.4.2: "
        "bound job --help to class 1:d on eth0",
        ann={"sch-ddl.io/job": "--help"}),
    cni("ADD", "syslog", POD_BOUND + "sch-ddl-job: warning: job llm-7: size "
        "'1.5g' is not a size (...); bound with size 0; sch-ddl-job: "
        "warning: job llm-7: weight 'abc' is not a whole number from 1 to "
        "256; bound with weight 1",
        ann=None, cni_args="DDL_JOB=llm-7;DDL_SIZE=1.5g;DDL_WEIGHT=abc"),
    cni("ADD", "syslog", "sch-ddl-cni: CNI_ARGS item 'DDL_JOB' is no "
        "KEY=VALUE; ignored", ann=None,
        cni_args="IgnoreUnknown=1;DDL_JOB"),
    cni("ADD", "syslog", "sch-ddl-cni: job llm-7: container c1 (no address): "
        "bound job llm-7 to class 1:9 on eth0", prev=None),
    cni("ADD", "syslog", "sch-ddl-cni: job llm-7: container c1 (no address): "
        "bound job llm-7 to class 1:9 on eth0", prev="x"),
    cni("ADD", "syslog", "sch-ddl-cni: job llm-7: container c1 (no address): "
        "bound job llm-7 to class 1:9 on eth0",
        prev={"ips": "garbage"}),
    cni("ADD", "syslog", "sch-ddl-cni: job llm-7: container c1 --help: bound "
        "job llm-7 to class 1:9 on eth0; sch-ddl-job: warning: job llm-7: "
        "addr '--help' is no IPv4 or IPv6 address; bound without it",
        prev={"ips": [{"address": "--help/24"}]}),
    cni("ADD", "syslog", "sch-ddl-cni: job llm-7: no CNI_CONTAINERID; left "
        "alone", cid=""),
    cni("ADD", "syslog", POD + "sch-ddl-job: no device has " + NO_DDL +
        " (status 4)", setup="noddl"),
    cni("ADD", "syslog", POD + "sch-ddl-job: " + LOCK + " (status 5)",
        env=QUICK_LOCK, setup="lock"),
    cni("ADD", "syslog", POD + "/nonexistent/job not found (status "
        "127)", env={"SCH_DDL_JOB": "/nonexistent/job"}),
    cni("ADD", "stdout", '{"cniVersion": "1.0.0", "code": 6, "msg": '
        '"configuration is no JSON: ..."}', status=1, stdin="{not json"),
    cni("DEL", "stdout", '{"cniVersion": "1.0.0", "code": 6, "msg": '
        '"configuration is no JSON: ..."}', status=1, stdin="{not json"),
    cni("DEL", None, None, setup="never"),
    cni("FROB", "stdout", '{"cniVersion": "1.0.0", "code": 4, "msg": '
        '"unknown CNI_COMMAND \'FROB\'"}', status=1),

    apply(None, "sch-ddl-apply: .../eth0.conf: cannot read it (No such file "
          "or directory)", what="no FILE"),
    apply(Ellipsis, "sch-ddl-apply: .../eth0.conf: cannot read it (Is a "
          "directory)", what="FILE a directory"),
    apply(b"qdisc root handle 1: ddl jobs 4\n\xff\xfe\n",
          "sch-ddl-apply: .../eth0.conf: cannot read it (not UTF-8 text)"),
    apply(b"", "sch-ddl-apply: .../eth0.conf: the first command must be the "
          "ddl qdisc", what="FILE empty"),
    apply(b"frob\n", "sch-ddl-apply: .../eth0.conf:1: a line starts with "
          "qdisc, class or filter, not 'frob'"),
    apply(b"qdisc root handle 1: ddl rate 1gbit\n", "sch-ddl-apply: "
          ".../eth0.conf:1: name the number of jobs (jobs N)"),
    apply(b"qdisc root handle 1: ddl jobs 4\nclass 1:2 dev eth1 ddl weight "
          b"2\n", "sch-ddl-apply: .../eth0.conf:2: no 'dev': the file is "
          "for eth0"),
    apply(b"qdisc root handle 1: ddl jobs 4\nfilter parent 1: prio 3 "
          b"matchall classid 1:1\n", "sch-ddl-apply: .../eth0.conf:2: no "
          "prio: filters take the file's order"),
    apply(b"qdisc root handle 1: ddl jobs 4\nqdisc root handle 2: ddl jobs "
          b"4\n", "sch-ddl-apply: .../eth0.conf:2: one qdisc line only"),
    apply(b"qdisc parent 1:1 handle 2: mq ddl jobs 4\n", "sch-ddl-apply: "
          ".../eth0.conf:1: mq goes at the root: 'root handle H: mq ddl "
          "OPTIONS'"),
    apply(b"qdisc root handle 1: mq jobs 4\n", "sch-ddl-apply: "
          ".../eth0.conf:1: expected 'root handle H: ddl OPTIONS' (or 'root "
          "handle H: mq ddl OPTIONS')"),
    apply(b"qdisc root handle 1: mq ddl jobs 4\nfilter parent 1: matchall "
          b"classid 1:1\n", "sch-ddl-apply: .../eth0.conf:2: no filter "
          "lines with mq: each queue's ddl would need its own"),
    apply(b"qdisc root handle 1: mq ddl jobs 4\nclass 2:1 ddl weight 2\n",
          "sch-ddl-apply: .../eth0.conf:2: with mq a class line names a "
          "class of the mq's handle, 1:MIN: it goes to each queue's ddl"),
]


# --- running a row ------------------------------------------------------

def pattern(line):
    """The row's line as a regular expression: "..." is any text."""
    return re.compile(".*".join(re.escape(p) for p in line.split("...")))


def check_row(row):
    """(ok, why) of one row."""
    h = Host(**row.run.host)
    try:
        status, out = row.run(h)
    finally:
        h.done()
    why = []
    if status != row.status:
        why.append("status %s, not %d" % ("none (hung)" if status is None
                                          else status, row.status))
    every = [line for lines in out.values() for line in lines]
    if any("Traceback" in line for line in every):
        why.append("a traceback")
    if row.line is None:
        if out["syslog"] or out["stderr"]:
            why.append("something said")
    else:
        got = [line for line in out[row.where]
               if pattern(row.line).fullmatch(line)]
        if len(got) != 1:
            why.append("%d %s lines match" % (len(got), row.where))
    if row.job is not None:
        stray = [line for line in every
                 if not line.startswith("sch-ddl-job: job %s: " % row.job)]
        if stray:
            why.append("lines without the job id: %r" % stray[:3])
    if row.entry == "sch-ddl-cni" and row.input.startswith("ADD") and \
            status == 0:
        try:
            ok = isinstance(json.loads("\n".join(out["stdout"])), dict)
        except ValueError:
            ok = False
        if not ok:
            why.append("ADD printed no result")
    if why:
        why.append("got %r" % {k: v for k, v in out.items() if v})
    return not why, "; ".join(why)


def cannot(row):
    """Why the row cannot run here, or None: as nobody only as root; with
    no sch-ddl-job only where none is installed (the hooks add the system's
    directories to their PATH, and tests/package installs one on this host
    for a while)."""
    if NOBODY[0] in row.run.cmd and os.getuid() != 0:
        return "not root"
    if row.run.host.get("job") is False and \
            shutil.which("sch-ddl-job", path=SYS_PATH):
        return "an installed sch-ddl-job is on the PATH"
    return None


# --- the table as roff --------------------------------------------------

def roff(text):
    """TEXT as roff text in a tbl text block, where a line may break after
    "=", ";" or ","."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = text.replace("'", "\\(aq").replace("\u00b2", "\\(S2")
    text = re.sub(r"([=;,])(?=\S)", "\\1\\\\:", text)
    return "\\&" + text


def render():
    """The BAD INPUT table of Documentation/sch-ddl-job.8, between its
    markers."""
    out = [
        "Each row was run by",
        ".IR tests/hooks/badinput_check.py ,",
        "which fails when a program does otherwise or this table differs",
        "from its own: the Slurm rows for job %s, the CNI rows for a pod"
        % SLURM_JOB,
        "of job %s (annotation" % POD_JOB,
        ".BR sch\\-ddl.io/job ),",
        "container %s, address %s in prevResult, the" % (POD_CID, POD_ADDR),
        ".B sch\\-ddl\\-apply",
        "rows as",
        '.BI "sch\\-ddl\\-apply \\-n \\-f " FILE " %s" ,' % APPLY_DEV,
        "unless the row says otherwise;",
        "\\&... stands for text left out.",
        ".PP",
        ".ad l",
        ".nh",
        ".ne 12v",
        ".TS",
        "lb2 lb2 lb2 lb",
        "lw(13n)2 lw(22n)2 l2 lw(26n).",
        "entry point\tinput\texit\twhat is logged",
        "_",
    ]
    last = None
    for row in ROWS:
        entry = "" if row.entry == last else roff(row.entry)
        last = row.entry
        said = "nothing" if row.line is None else \
            "\\fI%s:\\fR\n%s" % (row.where, roff(row.line))
        out.append("%s\tT{\n%s\nT}\t%d\tT{\n%s\nT}" % (
            entry, roff(row.input or "(none)"), row.status, said))
    out += [".TE", ".hy", ".ad"]
    return "\n".join(out) + "\n"


def documented():
    """The table in the man page, between its markers, or None."""
    with open(MAN) as f:
        text = f.read()
    m = re.search(r"^%s\n(.*?)^%s$" % (re.escape(BEGIN), re.escape(END)),
                  text, re.S | re.M)
    return m.group(1) if m else None


def differs(doc, want):
    """Where the page's table first differs from the rendering."""
    d, w = doc.splitlines(), want.splitlines()
    n = next((i for i, (a, b) in enumerate(zip(d, w)) if a != b),
             min(len(d), len(w)))
    return "its line %d is %r, not %r" % (
        n + 1, d[n] if n < len(d) else "(none)",
        w[n] if n < len(w) else "(none)")


def main(argv):
    if argv[1:] == ["--doc"]:
        sys.stdout.write(render())
        return 0
    if argv[1:]:
        sys.stderr.write(__doc__.strip().split("\n")[-1].strip() + "\n")
        return 2
    rows = [r for r in ROWS if not cannot(r)]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        results = list(pool.map(check_row, rows))
    for row, (ok, why) in zip(rows, results):
        tap.check(ok, "%s, %s: status %d, %s" % (
            row.entry, row.input or "(none)", row.status,
            "nothing said" if row.line is None else
            "one %s line: %s" % (row.where, row.line)), why)
    for row in ROWS:
        if cannot(row):
            print("skip - %s, %s: %s" % (row.entry, row.input, cannot(row)))
    doc, want = documented(), render()
    tap.check(doc == want, "Documentation/sch-ddl-job.8's BAD INPUT table "
              "is this table (%s --doc)" % os.path.relpath(__file__, TOP),
              "no table between its markers" if doc is None else
              differs(doc, want))
    why = []
    for cr in ("-rcR=0", "-rcR=1"):     # paged, and continuous as man(1)
        try:
            r = subprocess.run(["groff", "-t", "-man", "-Tutf8", "-wall",
                                cr, "-z", MAN], capture_output=True,
                               text=True)
            why += [r.stderr.strip().replace("\n", "; ") or
                    (r.returncode and "exit %d" % r.returncode) or ""]
        except OSError as e:
            why += [str(e)]
    why = "; ".join(w for w in why if w)
    tap.check(not why, "sch-ddl-job.8: groff -t -man -wall has nothing to "
              "say", why)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
