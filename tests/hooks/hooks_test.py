#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The launcher hooks on the host, with no VM: the real slurm-prolog,
slurm-epilog and sch-ddl-job against a made-up tc (tests/hooks/tc, which
logs what it is asked), a made-up logger writing to a file, a temporary
directory for the cgroups and for sch-ddl-job's state.  The hooks exit 0
and log one line per refusal whatever happens, sizes reach tc exactly,
the epilog removes what the prolog made, run runs, forwards and cleans
up, gc removes what a killed run left, under mq a bind goes to every
queue's ddl or to none and unbind puts every one back, and no program
under sbin/ ends in a traceback.  One "ok - " or "not ok - " line per check.

    python3 tests/hooks/hooks_test.py
"""

import importlib.machinery
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import tap  # noqa: E402

JOB = os.path.join(TOP, "sbin", "sch-ddl-job")
APPLY = os.path.join(TOP, "sbin", "sch-ddl-apply")
EXPORTER = os.path.join(TOP, "sbin", "sch-ddl-exporter")
PROLOG = os.path.join(TOP, "slurm", "slurm-prolog")
EPILOG = os.path.join(TOP, "slurm", "slurm-epilog")
SYS_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"

LOGGER = """#!/bin/sh
# a logger that writes "TAG: MESSAGE" lines to a file
tag=logger
while [ $# -gt 0 ]; do
	case $1 in
	-t) tag=$2; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
echo "$tag: $*" >>"$STUB_DIR/syslog"
"""


class Host:
    """A made-up host: bin/ with tc, logger and sch-ddl-job, cg/ for the
    cgroups, state/, a defaults file."""

    def __init__(self, mode="ddl", logger=True, job=True):
        self.d = tempfile.mkdtemp(prefix="hooks-")
        self.bin = os.path.join(self.d, "bin")
        self.cg = os.path.join(self.d, "cg")
        self.state = os.path.join(self.d, "state")
        os.makedirs(self.bin)
        os.makedirs(self.cg)
        os.symlink(os.path.join(HERE, "tc"), os.path.join(self.bin, "tc"))
        if job:
            os.symlink(JOB, os.path.join(self.bin, "sch-ddl-job"))
        with open(os.path.join(self.bin, "logger"), "w") as f:
            # A logger that is not there: the shell's 127.
            f.write(LOGGER if logger else "#!/bin/sh\nexit 127\n")
        os.chmod(os.path.join(self.bin, "logger"), 0o755)
        self.defaults = os.path.join(self.d, "defaults")
        self.write("defaults",
                   "SCH_DDL_SLURM_CGROUP=%s/job_%%j\n" % self.cg)
        self.write("mode", mode + "\n")
        self.env = dict(os.environ, PATH=self.bin + ":" + SYS_PATH,
                        STUB_DIR=self.d, TC=os.path.join(self.bin, "tc"),
                        SCH_DDL_JOB_STATE=self.state,
                        SCH_DDL_SLURM_DEFAULTS=self.defaults,
                        SCH_DDL_CGROUP_ROOT=os.path.join(self.d, "runs"))
        for k in ("SLURM_JOB_COMMENT", "SLURMD_NODENAME",
                  "SCH_DDL_JOB_LOCK_WAIT", "SCH_DDL_SLURM_TIMEOUT"):
            self.env.pop(k, None)

    def write(self, name, text):
        with open(os.path.join(self.d, name), "w") as f:
            f.write(text)

    def read(self, name):
        try:
            with open(os.path.join(self.d, name)) as f:
                return f.read()
        except OSError:
            return ""

    def run(self, cmd, env=None, timeout=30, **kw):
        """(status, stdout + stderr, seconds)"""
        t = time.monotonic()
        p = subprocess.run(cmd, env=dict(self.env, **(env or {})),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout, **kw)
        return p.returncode, p.stdout, time.monotonic() - t

    def prolog(self, job="1234", comment=None, env=None):
        e = dict(env or {}, SLURM_JOB_ID=job)
        if comment is not None:
            e["SLURM_JOB_COMMENT"] = comment
        return self.run([PROLOG], e)

    def epilog(self, job="1234", env=None):
        return self.run([EPILOG], dict(env or {}, SLURM_JOB_ID=job))

    def changes(self):
        return [line for line in self.read("tc.log").splitlines()
                if line.startswith("class change")]

    def done(self):
        shutil.rmtree(self.d, ignore_errors=True)


def one_line(out):
    """Nothing but one line, and no traceback."""
    return len(out.strip().splitlines()) == 1 and "Traceback" not in out


def bound_line(h, job, weight, size):
    minor = 1 + int(job) % 16
    return ("class change dev eth0 classid 1:%x ddl weight %s size %s "
            "cgroup %s/job_%s" % (minor, weight, size, h.cg, job))


# comment -> (weight, size, what the log says beside the binding)
COMMENTS = [
    (None, 1, 0, None),
    ("ddl-size=3g", 1, 3221225472, None),
    ("ddl-size=1t", 1, 1099511627776, None),
    ("ddl-size=1TB", 1, 1099511627776, None),
    ("ddl-size=24m", 1, 25165824, None),
    ("ddl-size=16Mb,ddl-weight=2", 2, 16777216, None),
    ("ddl-size=2000000 ddl-weight=3", 3, 2000000, None),
    ("ddl-size=4096k", 1, 4194304, None),
    ("ddl-size=123456789b", 1, 123456789, None),
    ("DDL-SIZE=2m", 1, 2097152, None),
    ("Ddl-Weight=7", 7, 0, None),
    ('ddl-size="2m"', 1, 2097152, None),
    ("ddl-size='2m'", 1, 2097152, None),
    ("other=1,ddl-weight=256", 256, 0, None),
    ("ddl-size=abc", 1, 0, "size 'abc' is not a size"),
    ("ddl-size=1.5g", 1, 0, "size '1.5g' is not a size"),
    ("ddl-size=-5", 1, 0, "size '-5' is not a size"),
    ("ddl-size=", 1, 0, "size '' is not a size"),
    ('ddl-size=""2m""', 1, 0, "size '\"2m\"' is not a size"),
    ("ddl-size=2t", 1, 0, "over the kernel's maximum 1t"),
    ("ddl-size=18446744073709551615", 1, 0, "over the kernel's maximum"),
    ("ddl-size=18446744073709551616", 1, 0, "over the kernel's maximum"),
    ("ddl-weight=9999", 1, 0, "weight '9999' is not a whole number from 1 "
     "to 256"),
    ("ddl-weight=0", 1, 0, "weight '0' is not a whole number from 1 to 256"),
    ("ddl-weight=x2,ddl-size=1m", 1, 1048576, "weight 'x2'"),
]


def test_comments():
    h = Host()
    for n, (comment, weight, size, warn) in enumerate(COMMENTS):
        job = str(100 + n)
        rc, out, _ = h.prolog(job, comment)
        what = "prolog, comment %r" % comment
        tap.check(rc == 0 and out == "", what + ": exit 0, silent",
                  "status %d, %r" % (rc, out))
        tap.check(h.changes()[-1:] == [bound_line(h, job, weight, size)],
                  what + ": tc binds weight %s size %s and the cgroup" %
                  (weight, size), "tc got %r" % h.changes()[-1:])
        tap.check(os.path.isdir(os.path.join(h.cg, "job_" + job)),
                  what + ": the cgroup made")
        log = [line for line in h.read("syslog").splitlines()
               if line.startswith("sch-ddl-job: job %s: " % job)]
        # The epilog frees the class for the next row.
        rc, out, _ = h.epilog(job)
        tap.check(rc == 0 and not os.path.isdir(
            os.path.join(h.cg, "job_" + job)) and h.changes()[-1:] == [
            "class change dev eth0 classid 1:%x ddl weight 1 size 0 cgroup "
            "none" % (1 + int(job) % 16)],
            what + ": the epilog unbinds and removes the cgroup",
            "status %d, %r" % (rc, out))
        if warn:
            bad = [line for line in log if warn in line]
            tap.check(len(bad) == 1 and "bound with" in bad[0],
                      what + ": one log line with the job id says '%s' and "
                      "what was bound instead" % warn, "log %r" % log)
        else:
            tap.check(log == ["sch-ddl-job: job %s: bound job %s to class "
                              "1:%x on eth0" % (job, job, 1 + int(job) % 16)],
                      what + ": one log line, bound", "log %r" % log)
    h.done()


def test_sizes_direct():
    """sch-ddl-job --size from a human: tc's sizes exactly, or status 2."""
    h = Host()
    for arg, want in (("3g", "3221225472"), ("1t", "1099511627776"),
                      ("1099511627776", "1099511627776"), ("1", "1"),
                      ("0", "0"), ("123456789", "123456789"),
                      ("5kb", "5120")):
        rc, out, _ = h.run([JOB, "bind", "5", "--size", arg])
        tap.check(rc == 0 and h.changes()[-1:] == [
            "class change dev eth0 classid 1:6 ddl weight 1 size %s "
            "cgroup none" % want], "bind --size %s: tc gets size %s" %
            (arg, want), "status %d, %r, tc %r" % (rc, out, h.changes()[-1:]))
    for args in (["--size", "1.5g"], ["--size", "abc"], ["--size", "-5"],
                 ["--size", "18446744073709551615"], ["--size", "2t"],
                 ["--weight", "0"], ["--weight", "9999"],
                 ["--weight", "1.5"]):
        n = len(h.changes())
        rc, out, _ = h.run([JOB, "bind", "5"] + args)
        tap.check(rc == 2 and one_line(out) and len(h.changes()) == n,
                  "bind %s: usage error, status 2, one line, tc untouched" %
                  " ".join(args), "status %d, %r" % (rc, out))
    rc, out, _ = h.run([JOB, "bind", "5", "--size", "1.5g", "--weight", "0",
                        "--lenient"])
    tap.check(rc == 0 and h.changes()[-1:] == [
        "class change dev eth0 classid 1:6 ddl weight 1 size 0 cgroup none"]
        and len(re.findall(r"^sch-ddl-job: warning: job 5: ", out, re.M)) == 2,
        "bind --lenient with a bad size and weight: the defaults, a "
        "warning line each", "status %d, %r" % (rc, out))
    h.done()


def test_ranges():
    """sch-ddl-job's ranges are the kernel's."""
    loader = importlib.machinery.SourceFileLoader("job", JOB)
    spec = importlib.util.spec_from_loader("job", loader)
    job = importlib.util.module_from_spec(spec)
    loader.exec_module(job)
    with open(os.path.join(TOP, "kmod", "ddl_params.h")) as f:
        text = f.read()
    want = {}
    for name in ("WEIGHT_MIN", "WEIGHT_MAX", "WEIGHT_DEFAULT"):
        m = re.search(r"#define\s+DDL_%s\s+(\d+)U?\b" % name, text)
        want[name] = int(m.group(1)) if m else None
    m = re.search(r"#define\s+DDL_SIZE_MAX\s+BIT_ULL\((\d+)\)", text)
    want["SIZE_MAX"] = 1 << int(m.group(1)) if m else None
    got = {k: getattr(job, k) for k in want}
    tap.check(got == want, "sch-ddl-job's weight and size ranges are "
              "kmod/ddl_params.h's", "%r != %r" % (got, want))


def test_defaults_file():
    for text, why in (("SCH_DDL_SLURM_CGROUP=(\n", "a syntax error"),
                      ("exit 3\n", "exit 3"),
                      ("if then fi\n", "if then fi")):
        h = Host()
        h.write("defaults", text)
        rc, out, t = h.prolog("77")
        log = h.read("syslog")
        tap.check(rc == 0 and out == "" and t < 10,
                  "prolog, defaults file with %s: exit 0" % why,
                  "status %d, %r" % (rc, out))
        tap.check(re.search(r"^sch-ddl-job: job 77: .*defaults is broken "
                            r"\(status \d+\); ignored$", log, re.M),
                  "... one log line says the file is broken and ignored",
                  repr(log))
        rc, out, _ = h.epilog("77")
        tap.check(rc == 0, "... the epilog exits 0 too")
        h.done()


def test_lock():
    h = Host()
    os.makedirs(h.state)
    lock = os.path.join(h.state, ".lock")
    holder = subprocess.Popen(["flock", lock, "sleep", "60"])
    time.sleep(0.3)
    try:
        rc, out, t = h.prolog("88", "ddl-size=1m")
        log = h.read("syslog")
        tap.check(rc == 0 and t < 10,
                  "prolog, lock held by another: exit 0 within 10 s",
                  "status %d after %.1f s" % (rc, t))
        tap.check(re.findall(r"^sch-ddl-job: job 88: .*", log, re.M) ==
                  ["sch-ddl-job: job 88: not bound (status 5): %s/.lock "
                   "held by another sch-ddl-job for 5 s; nothing done" %
                   h.state], "... logged in one line, status 5", repr(log))
        tap.check(h.changes() == [], "... tc untouched")
        rc, out, t = h.epilog("88", {"SCH_DDL_JOB_LOCK_WAIT": "0.5"})
        tap.check(rc == 0 and t < 5 and
                  not os.path.isdir(os.path.join(h.cg, "job_88")),
                  "epilog, lock held: exit 0, the cgroup it made removed",
                  "status %d after %.1f s" % (rc, t))
        rc, out, t = h.run([JOB, "unbind", "88"],
                           {"SCH_DDL_JOB_LOCK_WAIT": "0.5"})
        tap.check(rc == 5 and one_line(out) and t < 3,
                  "sch-ddl-job unbind, lock held: status 5 after the wait, "
                  "one line", "status %d, %r" % (rc, out))
        # bind --wait waits for the cgroup before it takes the lock: it
        # fails for the cgroup, not for the lock.
        rc, out, t = h.run([JOB, "bind", "89", "--cgroup",
                            os.path.join(h.cg, "none"), "--wait", "0.5"],
                           {"SCH_DDL_JOB_LOCK_WAIT": "30"})
        tap.check(rc == 1 and "no cgroup directory" in out and t < 5,
                  "bind --wait: waits for the cgroup, then fails without "
                  "waiting for the lock", "status %d after %.1f s: %r" %
                  (rc, t, out))
    finally:
        holder.kill()
        holder.wait()
    h.done()


def test_timeout():
    h = Host(mode="hang")
    rc, out, t = h.prolog("90", env={"SCH_DDL_SLURM_TIMEOUT": "1"})
    tap.check(rc == 0 and t < 6, "prolog, tc hangs: exit 0 within the "
              "timeout", "status %d after %.1f s" % (rc, t))
    tap.check(h.read("syslog") == "sch-ddl-job: job 90: not bound (status "
              "124): sch-ddl-job timed out after 1 s\n", "... logged in one "
              "line", h.read("syslog"))
    rc, out, t = h.epilog("90", {"SCH_DDL_SLURM_TIMEOUT": "1"})
    tap.check(rc == 0 and t < 6 and
              not os.path.isdir(os.path.join(h.cg, "job_90")),
              "epilog, tc hangs: exit 0 within the timeout, cgroup removed",
              "status %d after %.1f s" % (rc, t))
    h.done()


def test_no_ddl():
    h = Host(mode="none")
    rc, out, _ = h.prolog("91", "ddl-size=1m")
    log = h.read("syslog")
    tap.check(rc == 0 and log == "sch-ddl-job: job 91: not bound (status "
              "4): no device has ddl as its root qdisc or on every queue "
              "under mq or mqprio\n",
              "prolog, no ddl qdisc: exit 0, logged in one line", repr(log))
    rc, out, _ = h.epilog("91")
    tap.check(rc == 0 and not os.path.isdir(os.path.join(h.cg, "job_91")),
              "epilog, no ddl qdisc: exit 0, the cgroup the prolog made is "
              "removed", "status %d, %r" % (rc, os.listdir(h.cg)))
    # A cgroup the prolog did not make stays.
    os.mkdir(os.path.join(h.cg, "job_92"))
    h.prolog("92")
    h.epilog("92")
    tap.check(os.path.isdir(os.path.join(h.cg, "job_92")),
              "epilog: a cgroup the prolog did not make is left alone")
    h.done()
    # Bound, then the qdisc went: unbind succeeds and removes the cgroup.
    h = Host()
    os.mkdir(os.path.join(h.cg, "x"))
    h.run([JOB, "bind", "93", "--cgroup", os.path.join(h.cg, "x")])
    h.write("mode", "none\n")
    rc, out, _ = h.run([JOB, "unbind", "93", "--rmdir"])
    tap.check(rc == 0 and not os.path.isdir(os.path.join(h.cg, "x")),
              "unbind --rmdir when the ddl qdisc went: status 0, cgroup "
              "removed", "status %d, %r" % (rc, out))
    rc, out, _ = h.run([JOB, "list"])
    tap.check(rc == 0 and "93" not in out, "... and the binding forgotten",
              out)
    rc, out, _ = h.run([JOB, "unbind", "93", "--dev", "eth7"])
    tap.check(rc == 0, "unbind of a job not bound, on a device without ddl: "
              "status 0", "status %d, %r" % (rc, out))
    h.done()


def test_missing_commands():
    h = Host(job=False)
    rc, out, _ = h.prolog("94")
    tap.check(rc == 0 and "job 94: sch-ddl-job not found; not bound" in
              h.read("syslog"), "prolog, no sch-ddl-job: exit 0, logged")
    rc, out, _ = h.epilog("94")
    tap.check(rc == 0 and not os.path.isdir(os.path.join(h.cg, "job_94")),
              "epilog, no sch-ddl-job: exit 0, cgroup removed")
    h.done()
    h = Host()
    rc, out, _ = h.prolog("95", env={"TC": "/nonexistent/tc"})
    tap.check(rc == 0 and h.read("syslog") == "sch-ddl-job: job 95: not "
              "bound (status 1): cannot run /nonexistent/tc: No such file "
              "or directory\n", "prolog, no tc: exit 0, logged in one line",
              h.read("syslog"))
    rc, out, _ = h.epilog("95", env={"TC": "/nonexistent/tc"})
    tap.check(rc == 0 and not os.path.isdir(os.path.join(h.cg, "job_95")),
              "epilog, no tc: exit 0, cgroup removed")
    h.done()
    h = Host(logger=False)
    rc, out, _ = h.prolog("96", "ddl-size=zz")
    lines = out.splitlines()
    tap.check(rc == 0 and lines and all(
        line.startswith("sch-ddl-job: job 96: ") for line in lines) and
        any("size 'zz'" in line for line in lines),
        "prolog, no logger: exit 0, its lines on stderr with the job id",
        repr(out))
    h.done()
    h = Host()
    rc, out, _ = h.prolog("")
    tap.check(rc == 0 and h.changes() == [], "prolog, no job id: exit 0")
    rc, out, _ = h.prolog("1;rm")
    tap.check(rc == 0 and h.changes() == [] and "not a job id" in
              h.read("syslog"), "prolog, a job id with ';': exit 0, nothing "
              "done, logged")
    h.done()


def test_epilog():
    h = Host()
    h.prolog("97", "ddl-size=2m,ddl-weight=4")
    rc, out, _ = h.epilog("97")
    tap.check(rc == 0 and h.changes()[-1:] == [
        "class change dev eth0 classid 1:2 ddl weight 1 size 0 cgroup none"],
        "epilog: the class put back", repr(h.changes()))
    tap.check(not os.path.isdir(os.path.join(h.cg, "job_97")),
              "epilog: the cgroup removed")
    rc, out, _ = h.run([JOB, "list", "--json"])
    tap.check(rc == 0 and out.strip() == "[]", "epilog: nothing bound", out)
    tap.check("job 97: unbound job 97 from class 1:2 on eth0" in
              h.read("syslog"), "epilog: logged")
    h.write("mode", "refuse\n")
    h.prolog("98")
    rc, out, _ = h.epilog("98")
    log = h.read("syslog")
    tap.check(rc == 0 and "job 98: not bound (status 1): tc class change "
              "dev eth0 classid 1:3 ddl weight 1 size 0 cgroup %s/job_98: "
              "Error: sch_ddl: refused by the made-up tc." % h.cg in log and
              not os.path.isdir(os.path.join(h.cg, "job_98")),
              "prolog refused by the kernel: logged in one line, the epilog "
              "removes the cgroup", log)
    h.done()


def test_errors():
    """No program under sbin/ ends in a traceback."""
    h = Host()
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    os.makedirs(h.state)
    os.chmod(h.state, 0o700)
    os.chmod(h.d, 0o755)
    cases = [
        ([JOB, "class", "42", "--jobs", "0"], {}, 2),
        ([JOB, "class", "42", "--jobs", "x"], {}, 2),
        ([JOB, "bind"], {}, 2),
        ([JOB, "bind", ""], {}, 2),
        ([JOB, "frob"], {}, 2),
        ([JOB, "run", "5"], {}, 2),
        ([JOB, "run", "a/b", "--", "true"], {}, 2),
        ([JOB, "bind", "5", "--dev", "eth7"], {}, 4),
        ([JOB, "bind", "5", "--cgroup", "/nonexistent"], {}, 1),
        ([JOB, "bind", "5"], {"TC": "/nonexistent/tc"}, 1),
        ([JOB, "list"], {"TC": "/nonexistent/tc"}, 1),
        ([JOB, "gc"], {"TC": "/bin/false"}, 0),
        ([JOB, "list"], {"SCH_DDL_JOB_STATE": "/dev/null/x"}, 0),
        ([JOB, "bind", "5"], {"SCH_DDL_JOB_STATE": "/dev/null/x"}, 1),
        ([APPLY], {}, 2),
        ([APPLY, "-n", "-f", "/nonexistent", "eth0"], {}, 1),
        ([sys.executable, APPLY, "-f", "/nonexistent", "eth0"],
         {"PATH": h.bin}, 1),
        ([EXPORTER, "--bogus"], {}, 2),
    ]
    if os.getuid() == 0:
        cases += [
            (nobody + [JOB, "list"], {}, 0),
            (nobody + [JOB, "bind", "5"], {}, 1),
            (nobody + [JOB, "gc"], {}, 1),
        ]
    for cmd, env, want in cases:
        rc, out, _ = h.run(cmd, env)
        shown = [c for c in cmd if c not in nobody and c != sys.executable]
        what = " ".join((["(nobody)"] if cmd[0] == "setpriv" else []) +
                        [os.path.basename(shown[0])] + shown[1:])
        what += "".join(" %s=%s" % kv for kv in env.items()
                        if kv[0] != "PATH") + (" (no PATH)" if "PATH" in
                                               env else "")
        # (sch-ddl-exporter is not this test's: argparse's usage, 2 lines)
        tap.check(rc == want and (one_line(out) or "Traceback" not in out and
                                  (want == 0 or EXPORTER in cmd)),
                  "%s: status %d, %s" % (what, want, "one line" if want
                                          else "no traceback"),
                  "status %d, %r" % (rc, out))
    # sch-ddl-apply -n where ip cannot make a dummy device
    with open(os.path.join(h.bin, "ip"), "w") as f:
        f.write("#!/bin/sh\necho 'Error: Unknown device type.' >&2\nexit 2\n")
    os.chmod(os.path.join(h.bin, "ip"), 0o755)
    h.write("eth0.conf", "qdisc root handle 1: ddl jobs 4\n")
    if subprocess.run(["unshare", "-n", "true"]).returncode == 0:
        rc, out, _ = h.run([APPLY, "-n", "-f", os.path.join(h.d, "eth0.conf"),
                            "eth0"])
        tap.check(rc == 1 and one_line(out) and "dummy" in out,
                  "sch-ddl-apply -n with no dummy driver: status 1, one "
                  "line", "status %d, %r" % (rc, out))
    # ip netns exec's fresh /sys: bind says to use nsenter.
    if subprocess.run(["unshare", "-m", "true"]).returncode == 0:
        rc, out, _ = h.run(["unshare", "-m", "sh", "-c",
                            "mount -t tmpfs none /sys && exec \"$@\"", "sh",
                            JOB, "bind", "5", "--cgroup",
                            "/sys/fs/cgroup/system.slice/x"])
        tap.check(rc == 1 and one_line(out) and
                  "nsenter --net=" in out and "host's mount namespace" in out,
                  "bind where /sys/fs/cgroup is no cgroup2 mount: one line "
                  "pointing at nsenter --net=", "status %d, %r" % (rc, out))
    h.done()


def wait_for(cond, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


def signals_default():
    """In a child: SIGINT and SIGHUP as a terminal's session has them.
    Ignored ones stay ignored across exec, and run forwards a signal the
    command may ignore: a test run under nohup, or from a shell's
    background job, would see sleep outlive its SIGHUP or SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def test_run():
    h = Host()
    root = os.path.join(h.d, "runs")
    cg = os.path.join(root, "job-7")
    rc, out, _ = h.run([JOB, "run", "7", "--size", "2m", "--weight", "3",
                        "--", "sh", "-c",
                        'read p <"$0/cgroup.procs"; [ "$p" = $$ ] || exit 99; '
                        'echo "args:$1"; exit 3', cg, "a b"])
    tap.check(rc == 3, "run: the command's status", "status %d, %r" %
              (rc, out))
    tap.check("args:a b" in out, "run: the command ran with its arguments, "
              "in the job's cgroup (its pid in cgroup.procs)", out)
    tap.check(h.changes() == [
        "class change dev eth0 classid 1:8 ddl weight 3 size 2097152 "
        "cgroup %s" % cg,
        "class change dev eth0 classid 1:8 ddl weight 1 size 0 cgroup none"],
        "run: bound with its size and weight, unbound after",
        repr(h.changes()))
    tap.check(not os.path.exists(cg) and os.listdir(
        os.path.join(h.state, "runs")) == [],
        "run: the cgroup and its mark removed")
    rc, out, _ = h.run([JOB, "run", "7", "--", "sh", "-c", "kill -TERM $$"])
    tap.check(rc == 143 and not os.path.exists(cg),
              "run: a command killed by SIGTERM: status 143, cleaned up",
              "status %d" % rc)
    rc, out, _ = h.run([JOB, "run", "7", "--", "/nonexistent/cmd"])
    tap.check(rc == 127 and "Traceback" not in out and not
              os.path.exists(cg), "run: no such command: status 127",
              "status %d, %r" % (rc, out))
    for mode, env, why in (("none", {}, "no ddl qdisc"),
                           ("ddl", {"TC": "/nonexistent/tc"}, "no tc"),
                           ("refuse", {}, "tc refuses")):
        h.write("mode", mode + "\n")
        rc, out, _ = h.run([JOB, "run", "7", "--", "sh", "-c",
                            "echo ran; exit 5"], env)
        warn = [line for line in out.splitlines() if "warning" in line]
        tap.check(rc == 5 and "ran" in out and len(warn) == 1 and
                  "running it unclassified" in warn[0] and
                  not os.path.exists(cg),
                  "run, %s: the command runs, one warning line" % why,
                  "status %d, %r" % (rc, out))
    h.write("mode", "ddl\n")
    rc, out, _ = h.run([JOB, "run", "7", "--size", "1.5g", "--", "true"])
    tap.check(rc == 0 and "size '1.5g'" in out and h.changes()[-2].endswith(
        "size 0 cgroup %s" % cg), "run --size 1.5g: the default, a warning",
        repr(out))

    # SIGTERM to the wrapper: the command gets it, run cleans up.
    # The waits are for a hang, not a time.
    flag = os.path.join(h.d, "got-term")
    p = subprocess.Popen([JOB, "run", "7", "--", "sh", "-c",
                          'trap "echo >$0; exit 9" TERM; echo >$0.ready; '
                          'sleep 30 & wait', flag], env=h.env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(flag + ".ready"), 60)
    p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=60)
    tap.check(rc == 9 and os.path.exists(flag),
              "run, SIGTERM: forwarded to the command, its status",
              "status %d" % rc)
    tap.check(not os.path.exists(cg) and h.changes()[-1].endswith(
        "cgroup none"), "run, SIGTERM: unbound, cgroup removed")
    for sig in (signal.SIGINT, signal.SIGHUP):
        p = subprocess.Popen([JOB, "run", "7", "--", "sleep", "30"],
                             env=h.env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             preexec_fn=signals_default)
        wait_for(lambda: os.path.exists(os.path.join(cg, "cgroup.procs")),
                 60)
        time.sleep(0.3)
        p.send_signal(sig)
        rc = p.wait(timeout=60)
        tap.check(rc == 128 + sig and not os.path.exists(cg),
                  "run, %s: forwarded, status %d, cleaned up" %
                  (sig.name, 128 + sig), "status %d" % rc)

    # SIGKILL of the wrapper: gc leaves the cgroup while the command
    # lives, removes binding and cgroup once it is gone.
    p = subprocess.Popen([JOB, "run", "7", "--", "sleep", "30"], env=h.env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(os.path.join(cg, "cgroup.procs")), 60)
    time.sleep(0.3)
    with open(os.path.join(cg, "cgroup.procs")) as f:
        child = int(f.read())
    p.kill()
    p.wait()
    n = len(h.changes())
    rc, out, _ = h.run([JOB, "gc"])
    tap.check(rc == 0 and os.path.isdir(cg) and len(h.changes()) == n,
              "gc after SIGKILL of run, its command alive: left alone",
              "status %d, %r" % (rc, out))
    os.kill(child, signal.SIGKILL)
    wait_for(lambda: not os.path.exists("/proc/%d/cmdline" % child) or
             open("/proc/%d/stat" % child).read().split(") ")[1][0] == "Z")
    time.sleep(0.2)
    rc, out, _ = h.run([JOB, "gc"])
    tap.check(rc == 0 and not os.path.exists(cg) and h.changes()[n:] == [
        "class change dev eth0 classid 1:8 ddl weight 1 size 0 cgroup none"]
        and os.listdir(os.path.join(h.state, "runs")) == [],
        "gc after the command is gone too: unbound, cgroup and mark removed",
        "status %d, %r, %r" % (rc, out, h.changes()[n:]))
    # A binding whose cgroup went (an epilog that never ran).
    gone = os.path.join(h.cg, "gone")
    os.mkdir(gone)
    h.run([JOB, "bind", "11", "--cgroup", gone])
    os.rmdir(gone)
    rc, out, _ = h.run([JOB, "gc"])
    tap.check(rc == 0 and h.changes()[-1] == "class change dev eth0 classid "
              "1:c ddl weight 1 size 0 cgroup none" and "11" not in
              h.run([JOB, "list"])[1], "gc: a binding whose cgroup is gone "
              "is undone", "status %d, %r" % (rc, out))
    h.done()


MQ = ["8001", "8002", "8003", "8004"]


def mq_lines(minor, facts, majors=MQ):
    return ["class change dev eth0 classid %s:%s ddl %s" % (m, minor, facts)
            for m in majors]


def test_mq():
    """eth0's root is mq, a ddl on each of its 4 queues: a bind goes to
    all four or to none."""
    h = Host(mode="mq")
    cg = os.path.join(h.cg, "job_42")
    os.mkdir(cg)
    rc, out, _ = h.run([JOB, "bind", "42", "--cgroup", cg, "--weight", "2",
                        "--size", "1m"])
    bound = "weight 2 size 1048576 cgroup %s" % cg
    tap.check(rc == 0 and out == "bound job 42 to classes 8001:b ... 8004:b "
              "(one on each of 4 queues) on eth0\n" and
              h.changes() == mq_lines("b", bound),
              "mq: bind changes class b on each of the 4 queues' ddl, in "
              "the queues' order, and says so in one line",
              "status %d, %r, tc %r" % (rc, out, h.changes()))
    calls = h.read("calls.log").splitlines()
    tap.check(calls == ["-j qdisc show", "-s class show dev eth0",
                        "-batch -"],
              "mq: bind runs tc 3 times, not twice per queue: the qdiscs, "
              "every class, the changes in one batch", repr(calls))
    rc, out, _ = h.run([JOB, "list", "--json"])
    rows = json.loads(out) if rc == 0 else []
    tap.check(len(rows) == 1 and rows[0]["class"] == "8001:b" and
              rows[0]["classes"] == ["%s:b" % m for m in MQ] and
              rows[0]["bytes"] == 400 and rows[0]["drops"] == 8,
              "mq: list --json: the first class, every class, bytes and "
              "drops summed over the queues", "status %d, %r" % (rc, out))
    rc, out, _ = h.run([JOB, "list"])
    tap.check(rc == 0 and re.search(r"^42 +eth0 +8001:b\+3 +2 +1048576 +400 "
                                    r"+8 ", out, re.M),
              "mq: list: the first class +3, the sums", out)
    n = len(h.changes())
    rc, out, _ = h.run([JOB, "unbind", "42"])
    tap.check(rc == 0 and h.changes()[n:] == mq_lines(
        "b", "weight 1 size 0 cgroup none"),
        "mq: unbind puts back the class on all 4 queues",
        "status %d, %r, tc %r" % (rc, out, h.changes()[n:]))
    # A cgroup path that a batch line cannot hold: one tc per change.
    odd = os.path.join(h.cg, "job 44#x")
    os.mkdir(odd)
    n, k = len(h.changes()), len(h.read("calls.log").splitlines())
    rc, out, _ = h.run([JOB, "bind", "44", "--cgroup", odd])
    calls = h.read("calls.log").splitlines()[k:]
    tap.check(rc == 0 and h.changes()[n:] == mq_lines(
        "d", "weight 1 size 0 cgroup %s" % odd) and
        calls[2:] == h.changes()[n:],
        "mq: a cgroup path with a blank and a '#': bound on the 4 queues, "
        "one tc each", "status %d, %r, calls %r" % (rc, out, calls))
    h.run([JOB, "unbind", "44"])
    os.rmdir(odd)
    # The Slurm hooks on mq.
    n = len(h.changes())
    rc, out, _ = h.prolog("43", "ddl-size=2m")
    rc2, out2, _ = h.epilog("43")
    log = h.read("syslog").splitlines()
    tap.check(rc == rc2 == 0 and h.changes()[n:] == mq_lines(
        "c", "weight 1 size 2097152 cgroup %s/job_43" % h.cg) + mq_lines(
        "c", "weight 1 size 0 cgroup none") and log == [
        "sch-ddl-job: job 43: bound job 43 to classes 8001:c ... 8004:c "
        "(one on each of 4 queues) on eth0",
        "sch-ddl-job: job 43: unbound job 43 from classes 8001:c ... 8004:c "
        "(one on each of 4 queues) on eth0"],
        "mq: the prolog binds all 4 queues, the epilog unbinds them, one "
        "log line each", "tc %r, log %r" % (h.changes()[n:], log))
    # gc: a binding whose cgroup went is put back on every queue.
    gone = os.path.join(h.cg, "gone")
    os.mkdir(gone)
    h.run([JOB, "bind", "46", "--cgroup", gone])
    os.rmdir(gone)
    n = len(h.changes())
    rc, out, _ = h.run([JOB, "gc"])
    tap.check(rc == 0 and h.changes()[n:] == mq_lines(
        "f", "weight 1 size 0 cgroup none"),
        "mq: gc puts back a binding whose cgroup is gone on all 4 queues",
        "status %d, %r, tc %r" % (rc, out, h.changes()[n:]))
    # A record from before mq (one class) is put back as it was.
    d = os.path.join(h.state, "net%d" % os.stat("/proc/self/ns/net").st_ino,
                     "eth0")
    with open(os.path.join(d, "d"), "w") as f:
        json.dump({"job": "44", "class": "8002:d", "cgroup": None}, f)
    n = len(h.changes())
    rc, out, _ = h.run([JOB, "unbind", "44"])
    tap.check(rc == 0 and h.changes()[n:] == mq_lines(
        "d", "weight 1 size 0 cgroup none", ["8002"]),
        "mq: unbind of an old record (\"class\" only): that class put back",
        "status %d, %r, tc %r" % (rc, out, h.changes()[n:]))
    # Bound on mq, then the root became a ddl 1:: nothing to put back.
    h.run([JOB, "bind", "45"])
    h.write("mode", "ddl\n")
    n, k = len(h.changes()), len(h.read("calls.log").splitlines())
    rc, out, _ = h.run([JOB, "unbind", "45"])
    tap.check(rc == 0 and h.changes()[n:] == [] and
              "-batch -" not in h.read("calls.log").splitlines()[k:] and
              "45" not in h.run([JOB, "list"])[1],
              "mq: unbind after the queues' ddl went: nothing changed, the "
              "binding forgotten", "status %d, %r" % (rc, out))
    h.done()

    # The third queue refuses: the first two put back, nothing recorded.
    h = Host(mode="mqrefuse")
    rc, out, _ = h.run([JOB, "bind", "42", "--weight", "3"])
    tap.check(rc == 1 and one_line(out) and "8003:b" in out and
              "refused by the made-up tc" in out,
              "mq, the 3rd queue refuses: status 1, tc's message in one "
              "line", "status %d, %r" % (rc, out))
    tap.check(h.changes() == mq_lines("b", "weight 3 size 0 cgroup none",
                                      MQ[:3]) +
              mq_lines("b", "weight 1 size 0 cgroup none", MQ[1::-1]),
              "mq, the 3rd queue refuses: the 2 changed before put back as "
              "they were, the 4th never touched", repr(h.changes()))
    rc, out, _ = h.run([JOB, "list", "--json"])
    tap.check(rc == 0 and json.loads(out) == [],
              "mq, the 3rd queue refuses: nothing recorded", out)
    h.done()

    # ... and the second cannot be put back: every other one still is,
    # and the line says which one is not.
    h = Host(mode="mqstuck")
    rc, out, _ = h.run([JOB, "bind", "42", "--weight", "3"])
    tap.check(rc == 1 and one_line(out) and out.endswith(
        "refused by the made-up tc.; NOT PUT BACK: 8002:b on eth0\n") and
        h.changes()[3:] == mq_lines("b", "weight 1 size 0 cgroup none",
                                    MQ[1::-1]),
        "mq, the rollback itself refused on the 2nd queue: the 1st put "
        "back still, one line names the class left", "status %d, %r, tc %r"
        % (rc, out, h.changes()))
    h.done()

    # Queues whose ddl differ in jobs, or have no handle: refused.
    for mode, want, why in (
            ("mqjobs", "sch-ddl-job: eth0: its queues' ddl qdiscs differ in "
             "jobs (jobs 8 on 8003:; jobs 16 on 8001: 8002: 8004:): a job "
             "would get another class on each; nothing bound\n",
             "the queues' ddl differ in jobs"),
            ("mqdefault", "sch-ddl-job: eth0: the ddl on queue 1:1 has no "
             "handle of its own (mq made it), so tc cannot reach its "
             "classes: give each queue's ddl a handle (tc qdisc replace dev "
             "eth0 parent 1:1 handle H: ddl ...); nothing bound\n",
             "the queues' ddl have no handle")):
        h = Host(mode=mode)
        rc, out, _ = h.run([JOB, "bind", "42"])
        tap.check(rc == 1 and out == want and h.changes() == [],
                  "mq, %s: refused, status 1, one line naming eth0, nothing "
                  "changed" % why, "status %d, %r, tc %r" %
                  (rc, out, h.changes()))
        rc, out, _ = h.prolog("42")
        tap.check(rc == 0 and h.changes() == [] and h.read("syslog") ==
                  "sch-ddl-job: job 42: not bound (status 1): " +
                  want[len("sch-ddl-job: "):],
                  "mq, %s: the prolog exits 0, one log line" % why,
                  h.read("syslog"))
        h.done()


def load_apply(d):
    """sch-ddl-apply as a module, on tests/hooks/tcmodel.py's made-up
    kernel in D (tc and ip on the PATH)."""
    b = os.path.join(d, "bin")
    os.makedirs(b)
    for name in ("tc", "ip"):
        os.symlink(os.path.join(HERE, "tcmodel.py"), os.path.join(b, name))
    os.environ.update(STUB_DIR=d, PATH=b + ":" + os.environ["PATH"])
    loader = importlib.machinery.SourceFileLoader("apply", APPLY)
    spec = importlib.util.spec_from_loader("apply", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    mod.TC = os.path.join(b, "tc")
    return mod


def test_apply_mq():
    """sch-ddl-apply's "qdisc root handle 1: mq ddl ...": a ddl on every
    queue, all or nothing, on a made-up kernel (no namespace, no dummy:
    the check on a dummy device is left out)."""
    d = tempfile.mkdtemp(prefix="apply-")
    env = dict(os.environ)
    try:
        mod = load_apply(d)

        def model(*args):
            subprocess.run([sys.executable, os.path.join(HERE, "tcmodel.py"),
                            *args], check=True)

        def dump(dev):
            return (mod.tc("-j", "qdisc", "show", "dev", dev),
                    mod.tc("class", "show", "dev", dev))

        def conf(text, dev="eth0"):
            path = os.path.join(d, dev + ".conf")
            with open(path, "w") as f:
                f.write(text)
            return mod.Conf(path, dev)

        def apply(c, dev="eth0", fault=0):
            os.environ["SCH_DDL_APPLY_FAULT"] = str(fault)
            try:
                return mod.apply(dev, c), None
            except mod.Failed as e:
                return None, str(e)

        model("new", "eth0", "4")
        first = conf("qdisc root handle 1: mq ddl jobs 4 rate 100mbit\n"
                     "class 1:2 ddl weight 3\n")
        before = dump("eth0")
        # A fault at each command of the first apply (mq, 4 queues, 4
        # classes): the device's default mq is back, as it was.
        for k in range(1, 10):
            what, err = apply(first, fault=k)
            tap.check(what is None and err and err.endswith(
                "rolled back: the previous configuration is in force") and
                dump("eth0") == before,
                "apply mq, fault at command %d of 9: rolled back to the "
                "default mq, exactly" % k, "%r / %r" % (what, err))
        what, err = apply(first)
        qs = json.loads(dump("eth0")[0])
        tap.check(err is None and what.startswith(
            "mq 1: with a ddl on each of 4 queues (2: to 5:) put on") and
            [(q["kind"], q["handle"], q.get("parent"),
              q["options"].get("jobs")) for q in qs] == [
                ("mq", "1:", None, None)] + [
                ("ddl", "%d:" % (n + 1), "1:%d" % n, 4)
                for n in range(1, 5)] and
            dump("eth0")[1].count("weight 3") == 4,
            "apply mq: mq 1: at the root, ddl 2: to 5: on queues 1:1 to "
            "1:4, class 2 weight 3 on each", "%r / %r / %r" %
            (what, err, dump("eth0")))
        one = dump("eth0")
        # Changed in place: qdisc change on each queue, the classes; a
        # fault at any of them puts back every option and class.
        second = conf("qdisc root handle 1: mq ddl jobs 4 rate 200mbit\n"
                      "class 1:2 ddl weight 5\nclass 1:3 ddl size 1000\n")
        for k in range(1, 13):
            what, err = apply(second, fault=k)
            tap.check(what is None and err.endswith(
                "rolled back: the previous configuration is in force") and
                dump("eth0") == one,
                "apply mq again, fault at command %d of 12 (in place): "
                "rolled back exactly" % k, "%r / %r" % (what, err))
        n = len(open(os.path.join(d, "tc.log")).readlines())
        what, err = apply(second)
        log = open(os.path.join(d, "tc.log")).read().splitlines()[n:]
        tap.check(err is None and "changed in place" in what and
                  [w for w in log if w.startswith("qdisc")] ==
                  ["qdisc change dev eth0 parent 1:%d handle %d: ddl jobs 4 "
                   "rate 200mbit" % (q, q + 1) for q in range(1, 5)] and
                  dump("eth0")[1].count("weight 5") == 4,
                  "apply mq again: qdisc change on each queue, nothing "
                  "replaced", "%r / %r / %r" % (what, err, log))
        # A kernel that refuses an option on the queues: all back.
        two = dump("eth0")
        what, err = apply(conf("qdisc root handle 1: mq ddl jobs 8 bogus "
                               "1\n"))
        tap.check(what is None and "unknown option" in err and err.endswith(
            "rolled back: the previous configuration is in force") and
            dump("eth0") == two,
            "apply mq with other jobs and an option the kernel refuses: "
            "rolled back, every queue's ddl and class as it was", err)
        # From mq back to one root ddl, failing: the mq and its queues'
        # ddl come back; then for real.
        single = conf("qdisc root handle 1: ddl jobs 4\nclass 1:1 ddl "
                      "weight 2\n")
        for k in (1, 2, 3):
            what, err = apply(single, fault=k)
            tap.check(what is None and err.endswith(
                "rolled back: the previous configuration is in force") and
                dump("eth0") == two,
                "apply a root ddl over mq, fault at command %d: the mq and "
                "its queues' ddl are back" % k, err)
        what, err = apply(single)
        tap.check(err is None and json.loads(dump("eth0")[0])[0]["kind"] ==
                  "ddl", "apply a root ddl over mq", "%r / %r" % (what, err))
        # From a root ddl 1: to mq 1: (delete and add), failing.
        three = dump("eth0")
        for k in (1, 2, 3, 7):
            what, err = apply(first, fault=k)
            tap.check(what is None and err.endswith(
                "rolled back: the previous configuration is in force") and
                dump("eth0") == three,
                "apply mq over a root ddl of its handle, fault at command "
                "%d: the ddl and its classes are back" % k, err)
        # One transmit queue: refused, nothing done.
        model("new", "eth1", "1")
        before = dump("eth1")
        what, err = apply(conf("qdisc root handle 1: mq ddl jobs 4\n",
                               "eth1"), "eth1")
        tap.check(what is None and "one transmit queue" in err and
                  dump("eth1") == before,
                  "apply mq on a device of one queue: refused, untouched",
                  err)
    except Exception as e:  # noqa: BLE001 -- a test that breaks fails
        tap.check(False, "test_apply_mq", "%s: %s" % (type(e).__name__, e))
    finally:
        os.environ.clear()
        os.environ.update(env)
        shutil.rmtree(d, ignore_errors=True)


def main():
    for t in (test_ranges, test_comments, test_sizes_direct,
              test_defaults_file, test_no_ddl, test_missing_commands,
              test_epilog, test_errors, test_lock, test_timeout, test_run,
              test_mq, test_apply_mq):
        try:
            t()
        except Exception as e:  # a test that breaks is a failure
            tap.check(False, t.__name__, "%s: %s" % (type(e).__name__, e))
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
