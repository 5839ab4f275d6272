#!/usr/bin/python3 -S
# SPDX-License-Identifier: GPL-2.0
"""A made-up kernel for sch-ddl-apply on the host: run as "tc" or "ip"
(by the name it is called by), it keeps the qdiscs of made-up devices in
$STUB_DIR/model.json and answers what sch-ddl-apply asks, as the kernel
and tc with the ddl plugin would, for what tests/hooks/hooks_test.py's
test_apply_mq does: a root ddl, or mq at the root with a qdisc on each
transmit queue; qdisc add, replace, change and del, class change, -batch
(stopping at the first failure unless -force) and the dumps.  Every
command is appended to $STUB_DIR/tc.log.

model.json: {DEV: {"ntx": N, "root": QDISC}}, a QDISC {"kind", "handle"
(a major, 0 for none), "opts", "classes" {MINOR: [weight, size, cgroup]},
"queues" {N: QDISC or None} for mq}.  A device's default root is mq 0:
with fq_codel 0: on each queue (pfifo_fast 0: with one queue).

    tcmodel.py new DEV NTX     make a device (STUB_DIR's model)
"""

import json
import os
import sys

D = os.environ.get("STUB_DIR", ".")
MODEL = os.path.join(D, "model.json")
DDL_OPTS = ("jobs", "limit", "rate", "mode")


class Refused(Exception):
    pass


def load():
    try:
        with open(MODEL) as f:
            return json.load(f)
    except OSError:
        return {}


def save(m):
    with open(MODEL, "w") as f:
        json.dump(m, f, sort_keys=True)


def major(text):
    return int(text.split(":")[0] or "0", 16)


def default(ntx):
    if ntx == 1:
        return {"kind": "pfifo_fast", "handle": 0, "opts": {}}
    return {"kind": "mq", "handle": 0, "opts": {}, "queues": {
        str(n): {"kind": "fq_codel", "handle": 0, "opts": {}}
        for n in range(1, ntx + 1)}}


def rate(text):
    units = {"bps": 1, "kbit": 125, "mbit": 125000, "gbit": 125000000}
    for u, k in units.items():
        if text.endswith(u) and text[:-len(u)].isdigit():
            return int(text[:-len(u)]) * k
    if text == "unlimited":
        return 0
    raise Refused("Illegal \"rate\"")


def ddl_opts(words, old=None):
    """The options of a ddl given WORDS (those left out at defaults; a
    change, OLD the options in force, without jobs keeps them)."""
    o = {"jobs": old["jobs"] if old else 16, "limit": 10000, "rate": 0,
         "mode": "fair"}
    it = iter(words)
    for w in it:
        if w not in DDL_OPTS:
            raise Refused("sch_ddl: unknown option \"%s\"" % w)
        v = next(it, None)
        if v is None:
            raise Refused("sch_ddl: \"%s\" needs a value" % w)
        o[w] = rate(v) if w == "rate" else v if w == "mode" else int(v)
    if old is not None and o["jobs"] != old["jobs"]:
        raise Refused("sch_ddl: jobs cannot change (delete and add)")
    return o


def new(kind, handle, words, ntx):
    q = {"kind": kind, "handle": handle, "opts": {}}
    if kind == "ddl":
        q["opts"] = ddl_opts(words)
        q["classes"] = {"%x" % c: ["1", "0", "none"]
                        for c in range(1, q["opts"]["jobs"] + 1)}
    elif kind == "mq":
        if words:
            raise Refused("mq takes no options")
        if ntx < 2:
            raise Refused("Operation not supported")
        q["queues"] = {str(n): {"kind": "fq_codel", "handle": 0,
                                "opts": {}} for n in range(1, ntx + 1)}
    else:
        raise Refused("Unknown qdisc \"%s\"" % kind)
    return q


def every(dev):
    """(where, qdisc) of the device: "root", or the queue's number."""
    r = dev["root"]
    out = [("root", r)]
    for n, q in sorted((r.get("queues") or {}).items(), key=lambda x:
                       int(x[0])):
        if q:
            out.append((n, q))
    return out


def find(dev, handle):
    for where, q in every(dev):
        if handle and q["handle"] == handle:
            return where, q
    return None, None


def qdisc(dev, verb, args):
    where = args.pop(0)
    parent = args.pop(0) if where == "parent" else None
    handle = 0
    if args[:1] == ["handle"]:
        handle = major(args[1])
        args = args[2:]
    kind, words = (args[0], args[1:]) if args else (None, [])
    root = dev["root"]
    if where == "root":
        cur, put = root, lambda q: dev.__setitem__("root", q)
    else:
        if root["kind"] != "mq" or major(parent) != root["handle"]:
            raise Refused("Failed to find specified qdisc")
        n = str(int(parent.split(":")[1], 16))
        if n not in root["queues"]:
            raise Refused("Failed to find specified qdisc")
        cur = root["queues"][n]
        put = (lambda q: root["queues"].__setitem__(n, q))
    if verb == "del":
        if not cur or not cur["handle"]:
            raise Refused("Cannot delete qdisc with handle of zero.")
        put(default(dev["ntx"]) if where == "root" else None)
        return
    if cur and cur["handle"] and cur["handle"] == handle or \
            verb == "change":
        if not cur or cur["handle"] != handle or cur["kind"] != kind:
            raise Refused("Invalid qdisc name" if cur and
                          cur["handle"] == handle else
                          "Specified qdisc not found.")
        if verb == "add":
            raise Refused("Exclusivity flag on, cannot modify.")
        if kind != "ddl":
            raise Refused("Change operation not supported by specified "
                          "qdisc.")
        cur["opts"] = ddl_opts(words, cur["opts"])
        return
    if verb == "add" and cur and cur["handle"]:
        raise Refused("Exclusivity flag on, cannot modify.")
    if handle and find(dev, handle)[1] is not None:
        raise Refused("Exclusivity flag on, cannot modify.")
    put(new(kind, handle, words, dev["ntx"]))


def clss(dev, args):
    if args[0] != "classid":
        raise Refused("what class?")
    cid = args[1]
    _, q = find(dev, major(cid))
    minor = "%x" % int(cid.split(":")[1], 16)
    if not q or q["kind"] != "ddl" or minor not in q["classes"]:
        raise Refused("Specified class not found.")
    c = q["classes"][minor]
    keys = {"weight": 0, "size": 1, "cgroup": 2}
    it = iter(args[3:])
    for w in it:
        if w not in keys:
            raise Refused("sch_ddl: unknown class option \"%s\"" % w)
        c[keys[w]] = next(it)


def run(m, words):
    """One tc command on the model."""
    obj, verb = words[0], words[1]
    if words[2:3] != ["dev"] or words[3] not in m:
        raise Refused("Cannot find device")
    dev = m[words[3]]
    if obj == "qdisc" and verb in ("add", "replace", "change", "del"):
        qdisc(dev, verb, words[4:])
    elif obj == "class" and verb == "change":
        clss(dev, words[4:])
    else:
        raise Refused("Command \"%s\" is unknown" % " ".join(words[:2]))


def show(m, dev):
    out = []
    for where, q in every(m[dev]):
        d = {"kind": q["kind"], "handle": "%x:" % q["handle"], "refcnt": 2}
        if where == "root":
            d["root"] = True
        else:
            d["parent"] = "%x:%x" % (m[dev]["root"]["handle"], int(where))
        opts = dict(q["opts"])
        if q["kind"] == "ddl" and not opts.get("rate"):
            opts.pop("rate", None)
        d["options"] = opts
        out.append(d)
    return json.dumps(out)


def classes(m, dev):
    out = []
    for _, q in every(m[dev]):
        for c, (w, s, cg) in sorted((q.get("classes") or {}).items()):
            out.append("class ddl %x:%s root weight %s size %s cgroup %s" %
                       (q["handle"], c, w, s, cg))
    return "\n".join(out) + "\n"


def tc(argv):
    m = load()
    force = "-force" in argv
    argv = [a for a in argv if a != "-force"]
    if argv[:1] == ["-batch"]:
        with open(argv[1]) as f:
            lines = [ln.split() for ln in f if ln.strip()]
        failed = False
        for n, words in enumerate(lines, 1):
            log(" ".join(words))
            try:
                run(m, words)
            except Refused as e:
                sys.stderr.write("Error: %s\nCommand failed %s:%d\n" %
                                 (e, argv[1], n))
                failed = True
                if not force:
                    break
        save(m)
        return 1 if failed else 0
    log(" ".join(argv))
    if argv[:4] == ["-j", "qdisc", "show", "dev"]:
        print(show(m, argv[4]))
    elif argv[:3] == ["class", "show", "dev"]:
        sys.stdout.write(classes(m, argv[3]))
    elif argv[:3] == ["filter", "show", "dev"]:
        pass
    else:
        try:
            run(m, argv)
        except Refused as e:
            sys.stderr.write("Error: %s\n" % e)
            return 2
        save(m)
    return 0


def ip(argv):
    m = load()
    dev = argv[-1]
    if dev not in m:
        sys.stderr.write("Device \"%s\" does not exist.\n" % dev)
        return 1
    if "-j" in argv:
        print(json.dumps([{"ifname": dev, "num_tx_queues": m[dev]["ntx"]}]))
    return 0


def log(line):
    with open(os.path.join(D, "tc.log"), "a") as f:
        f.write(line + "\n")


def main(argv):
    if argv[1:2] == ["new"]:
        m = load()
        m[argv[2]] = {"ntx": int(argv[3]), "root": default(int(argv[3]))}
        save(m)
        return 0
    name = os.path.basename(argv[0])
    return ip(argv[1:]) if name == "ip" else tc(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
