#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The CNI plugin sbin/sch-ddl-cni as a runtime calls it, on the host.

A stub sch-ddl-job records every call; the plugin's state lives in a
temporary directory.  Checked: where the job's facts come from (pod
annotations, CNI_ARGS, the configuration), that ADD prints the previous
result unchanged, that the job's class is bound to the addresses of all of
its pods here and to those left after a DEL, that the last DEL unbinds,
GC, CHECK, VERSION, and that no failure (sch-ddl-job refusing, missing or
hanging, a held lock, garbage on stdin) fails the pod or prints a
traceback.  Prints "ok - ..." / "not ok - ..." lines; exits 1 on a failure.
"""

import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.join(HERE, "..", "..", "sbin", "sch-ddl-cni")
failed = 0


def result(ok, name):
    global failed
    print("%s - cni: %s" % ("ok" if ok else "not ok", name))
    if not ok:
        failed = 1


def conf(ips=("198.18.4.2/24",), **extra):
    c = {"cniVersion": "1.0.0", "name": "ddlbr", "type": "sch-ddl",
         "prevResult": {"cniVersion": "1.0.0",
                        "interfaces": [{"name": "eth0"}],
                        "ips": [{"address": a, "interface": 0}
                                for a in ips]}}
    c.update(extra)
    return c


class Env:
    def __init__(self, top):
        self.top = top
        self.calls = os.path.join(top, "calls")
        self.stub = os.path.join(top, "sch-ddl-job")
        self.state = os.path.join(top, "state")
        self.logs = os.path.join(top, "log")
        self.stub_status(0)
        bin_dir = os.path.join(top, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        with open(os.path.join(bin_dir, "logger"), "w") as f:
            f.write('#!/bin/sh\nshift 2; [ "$1" = -- ] && shift\n'
                    'echo "$*" >>%s\n' % self.logs)
        os.chmod(os.path.join(bin_dir, "logger"), 0o755)
        self.path = bin_dir + ":" + os.environ.get("PATH", "/usr/bin:/bin")

    def stub_status(self, status, sleep=0):
        with open(self.stub, "w") as f:
            f.write('#!/bin/sh\necho "$*" >>%s\nsleep %s\n'
                    'echo "sch-ddl-job said $1"\nexit %d\n'
                    % (self.calls, sleep, status))
        os.chmod(self.stub, 0o755)

    def run(self, cmd, c, cid="c1", args="", job_cmd=None, timeout=60):
        env = dict(os.environ, CNI_COMMAND=cmd, CNI_CONTAINERID=cid,
                   CNI_NETNS="/run/netns/x", CNI_IFNAME="eth0",
                   CNI_PATH="/usr/lib/cni", CNI_ARGS=args,
                   SCH_DDL_CNI_STATE=self.state, PATH=self.path,
                   SCH_DDL_JOB=job_cmd or self.stub)
        t = time.monotonic()
        p = subprocess.run([sys.executable, "-S", PLUGIN],
                           input=c if isinstance(c, str) else json.dumps(c),
                           capture_output=True, text=True, env=env,
                           timeout=timeout)
        p.secs = time.monotonic() - t
        return p

    def take_calls(self):
        try:
            with open(self.calls) as f:
                out = f.read().splitlines()
            os.unlink(self.calls)
            return out
        except OSError:
            return []

    def log_lines(self):
        try:
            with open(self.logs) as f:
                return f.read().splitlines()
        except OSError:
            return []


def main():
    with tempfile.TemporaryDirectory() as top:
        e = Env(top)

        # Annotations first, as containerd passes them.
        c = conf(runtimeConfig={"io.kubernetes.cri.pod-annotations": {
            "sch-ddl.io/job": "llm-7", "sch-ddl.io/size": "14g",
            "sch-ddl.io/weight": "2"}})
        p = e.run("ADD", c, args="DDL_JOB=other")
        result(p.returncode == 0, "ADD exits 0")
        out = json.loads(p.stdout or "{}")
        result(out.get("ips") == c["prevResult"]["ips"] and
               out.get("cniVersion") == "1.0.0",
               "ADD prints the previous result unchanged")
        result(e.take_calls() == ["bind --lenient --addr=198.18.4.2 "
                                  "--size=14g --weight=2 -- llm-7"],
               "annotations: job, size and weight, before CNI_ARGS")
        result(any("job llm-7" in line and "198.18.4.2" in line
                   for line in e.log_lines()),
               "the bind is logged with the job and the address")

        # A second pod of the job: both addresses.
        p = e.run("ADD", conf(("198.18.4.3/24",), runtimeConfig={
            "io.kubernetes.cri.pod-annotations": {
                "sch-ddl.io/job": "llm-7", "sch-ddl.io/size": "14g"}}),
            cid="c2")
        calls = e.take_calls()
        result(len(calls) == 1 and calls[0].startswith(
            "bind --lenient --addr=198.18.4.2 --addr=198.18.4.3") and
            calls[0].endswith(" -- llm-7"),
            "a second pod: the class bound to both pods' addresses")
        p = e.run("CHECK", conf(("198.18.4.3/24",), runtimeConfig={
            "io.kubernetes.cri.pod-annotations": {
                "sch-ddl.io/job": "llm-7"}}), cid="c2")
        result(p.returncode == 0 and p.stdout == "" and
               e.take_calls()[0].startswith(
                   "bind --lenient --addr=198.18.4.2 --addr="
                   "198.18.4.3"),
               "CHECK binds again what ADD bound, prints nothing")

        p = e.run("DEL", {"cniVersion": "1.0.0", "name": "ddlbr"}, cid="c1")
        calls = e.take_calls()
        result(p.returncode == 0 and len(calls) == 1 and
               calls[0].startswith("bind --lenient --addr=198.18.4.3")
               and "198.18.4.2" not in calls[0],
               "DEL of one pod: the class keeps the other's address")
        e.run("DEL", {"cniVersion": "1.0.0"}, cid="c2")
        result(e.take_calls() == ["unbind -- llm-7"],
               "DEL of the last pod unbinds the job")
        result(not os.path.exists(os.path.join(e.state, "job-llm-7")),
               "... and leaves no state behind")
        e.run("DEL", {"cniVersion": "1.0.0"}, cid="c2")
        result(e.take_calls() == [], "DEL again: nothing to do")

        # CNI_ARGS (podman), then the configuration.
        e.run("ADD", conf(("198.18.5.2/32",)),
              args="IgnoreUnknown=1;K8S_POD_NAME=x;DDL_JOB=42;DDL_SIZE=3g",
              cid="p1")
        result(e.take_calls() == ["bind --lenient --addr=198.18.5.2 "
                                  "--size=3g -- 42"],
               "CNI_ARGS: DDL_JOB and DDL_SIZE")
        e.run("ADD", conf(("198.18.5.6/32",), job="net-job", weight=3),
              cid="p2")
        result(e.take_calls() == ["bind --lenient --addr=198.18.5.6 "
                                  "--weight=3 -- net-job"],
               "the configuration's job and weight")
        e.run("ADD", conf(("198.18.5.7/32",)), cid="p3")
        result(e.take_calls() == [], "a pod with no job is left alone")

        # GC: p1 is gone from the runtime, p2 is not.
        e.run("GC", {"cniVersion": "1.1.0", "name": "ddlbr",
                     "cni.dev/valid-attachments": [
                         {"containerID": "p2", "ifname": "eth0"}]})
        result(e.take_calls() == ["unbind -- 42"],
               "GC unbinds the job whose pod the runtime no longer has")
        e.run("DEL", {"cniVersion": "1.0.0"}, cid="p2")
        e.take_calls()

        # Failures never fail the pod.
        e.stub_status(3)
        p = e.run("ADD", conf(args=None), args="DDL_JOB=9", cid="f1")
        result(p.returncode == 0 and json.loads(p.stdout)["ips"],
               "sch-ddl-job refusing (status 3): ADD still succeeds")
        result(any("job 9" in line and "status 3" in line
                   for line in e.log_lines()),
               "... and the refusal is logged with the job and the status")
        e.take_calls()
        p = e.run("ADD", conf(), args="DDL_JOB=9", cid="f2",
                  job_cmd=os.path.join(top, "nowhere"))
        result(p.returncode == 0 and json.loads(p.stdout)["ips"] and
               any("not found" in line for line in e.log_lines()),
               "sch-ddl-job missing: ADD succeeds and logs it")
        lock = open(os.path.join(e.state, ".lock"), "w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = e.run("ADD", conf(), args="DDL_JOB=9", cid="f3")
        lock.close()
        result(p.returncode == 0 and p.secs < 15 and
               json.loads(p.stdout)["ips"] and e.take_calls() == [],
               "a held lock: ADD gives up in %.1f s and succeeds" % p.secs)
        p = e.run("ADD", "{not json", cid="f4")
        out = json.loads(p.stdout or "{}")
        result(p.returncode == 1 and out.get("code") == 6 and
               "Traceback" not in p.stderr,
               "a configuration that is no JSON: CNI error 6")
        p = e.run("ADD", json.dumps({"cniVersion": "1.0.0",
                                     "prevResult": {"ips": "garbage"}}),
                  args="DDL_JOB=9", cid="f5")
        result(p.returncode == 0 and "Traceback" not in p.stderr,
               "a prevResult of the wrong shape: no traceback, exit 0")
        p = e.run("VERSION", {"cniVersion": "1.0.0"})
        out = json.loads(p.stdout or "{}")
        result(p.returncode == 0 and "1.0.0" in out.get(
            "supportedVersions", []), "VERSION lists 1.0.0")
    print("# cni: %s" % ("failed" if failed else "all passed"))
    return failed


if __name__ == "__main__":
    sys.exit(main())
