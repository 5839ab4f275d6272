#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Netlink fuzzer for sch_ddl: raw rtnetlink requests with valid, boundary
and malformed ddl options, checked against a model of what the kernel must
answer.  Runs as root in the test VM (it makes its own devices).

usage: nlfuzz.py [--seed S] [--count N] [--secs T] [--rounds R]

A run is rounds of N requests each; round r uses seed S + r and starts from
fresh devices, so "--seed S+r --count N --rounds 1" replays it.  It stops
after R rounds or T seconds, whichever comes first (R = 1 unless --secs).

Each round places a ddl in six slots: the root of a dummy device, under
prio, htb, tbf, under mq on a four-queue device, and the root of a
four-queue device.  Requests: create (a new handle: the create path),
change (no NLM_F_CREATE), replace with the same handle (tc's replace: the
change path), NLM_F_EXCL on the existing handle, delete, graft of another
qdisc, create under a missing parent, class change (weights; class ids in
and out of range, a missing qdisc) and class delete.  Options are sets of attributes with values drawn from each range
and its boundaries (0, 1, the limits and one past them, U32_MAX,
TC_DDL_AUTO, U64_MAX), and in a share of requests malformed: short, long,
duplicated, of unknown type, not nested, truncated.

Invariants, after every request:
  - the kernel accepts exactly what the model (tc-ddl.8's rules) accepts;
  - an accepted configuration dumps exactly as sent, with the defaults for
    what was absent, and every class weight as set;
  - a refusal carries an extack message, except where the tc core refuses
    before ddl is asked (listed in CORE_SILENT), and leaves the slot as it
    was: the same qdisc, every option and every class weight.
Kernel splats and leaks are vm-run's to find (the debug kernel).

Prints one "ok - ..." or "not ok - ..." line per round, "# finding: ..."
lines with the seed, step and request, and a summary "# fuzz: ..." line.
"""
import random
import socket
import struct
import subprocess
import sys
import time

RTM_NEWQDISC, RTM_DELQDISC, RTM_GETQDISC = 36, 37, 38
RTM_NEWTCLASS, RTM_DELTCLASS, RTM_GETTCLASS = 40, 41, 42
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 1, 2, 4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
TCA_KIND, TCA_OPTIONS = 1, 2
TC_H_ROOT = 0xFFFFFFFF
SOL_NETLINK, NETLINK_CAP_ACK, NETLINK_EXT_ACK = 270, 10, 11
NLMSGERR_ATTR_MSG = 1
U32_MAX, U64_MAX = 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF
AUTO, RATE_NONE = U32_MAX, U64_MAX
MTU = 1500 + 14			# psched_mtu() of a dummy device
BG_MINOR = 0xFFFF

# name: (type, bytes, lo, hi) from include/uapi/linux/sch_ddl.h and
# kmod/ddl_params.h; slice, yield, target_time, lead and share also take AUTO, rate
# also RATE_NONE.
ATTRS = {
	"limit": (2, 4, 1, 1048576),
	"jobs": (3, 4, 1, 4096),
	"mode": (4, 4, 0, 4),
	"slice": (5, 4, 100, 10000000),
	"yield": (6, 4, 0, 10000000),
	"maxwait": (7, 4, 1000, 60000000),
	"bgshare": (8, 4, 0, 50),
	"key": (9, 4, 0, 4),
	"keyttl": (10, 4, 0, 3600000),
	"rate": (11, 8, 125, 125000000000),
	"burst": (12, 4, 0, 1 << 26),
	"target": (13, 4, 0, 1 << 30),
	"target_time": (14, 4, 0, 10000000),
	"interval": (15, 4, 100, 10000000),
	"ecn": (16, 4, 0, 1),
	"lead": (17, 4, 0, 10000000),
	"maxperiod": (18, 4, 1000, 60000000),
	"epoch": (19, 4, 100, 10000000),
	"base": (20, 8, 0, U64_MAX),
	"memory_limit": (23, 4, 131072, U32_MAX),
	"share": (25, 4, 0, 1),
}
BY_TYPE = {v[0]: k for k, v in ATTRS.items()}
# 21, TCA_DDL_DSCP (binary), 22, TCA_DDL_SHUFFLE (which needs dscp), and
# 24, TCA_DDL_TIERS (binary, which needs a shuffle), are not fuzzed here:
# tdc and cluster.sh test them.
ATTR_MAX = 25
DEFAULTS = {"limit": 10000, "jobs": 16, "mode": 3, "slice": AUTO,
	    "yield": AUTO, "maxwait": 100000, "bgshare": 3, "key": 1,
	    "keyttl": 1000, "rate": 0, "burst": 0, "target": 0,
	    "target_time": AUTO, "interval": 10000, "ecn": 1, "lead": AUTO,
	    "maxperiod": 10000000, "epoch": 20000, "base": 0,
	    "memory_limit": 33554432, "share": AUTO}

# Refusals the tc core makes before ddl sees the request, without an
# extack message (net/sched/sch_api.c, tc_ctl_tclass): (request, errno).
CORE_SILENT = {("class-excl", 17), ("class-noqdisc", 2),
	       ("class-delete-missing", 2)}


class Refused(Exception):
	pass


def attr(atype, payload):
	pad = b"\0" * ((4 - len(payload) % 4) % 4)
	return struct.pack("HH", 4 + len(payload), atype) + payload + pad


def parse_attrs(data, off, end):
	out = {}
	while off + 4 <= end:
		alen, atype = struct.unpack_from("HH", data, off)
		if alen < 4:
			break
		out[atype & 0x3FFF] = data[off + 4:off + alen]
		off += (alen + 3) & ~3
	return out


class Netlink:
	def __init__(self):
		self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
				       socket.NETLINK_ROUTE)
		self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
		self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
		self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
		self.s.settimeout(30)
		self.seq = 0
		self.sent = 0

	def send(self, mtype, flags, body):
		self.seq += 1
		self.sent += 1
		self.s.send(struct.pack("IHHII", 16 + len(body), mtype,
					flags | NLM_F_REQUEST, self.seq, 0) + body)
		return self.seq

	def request(self, mtype, flags, body):
		"""Returns (errno, extack message); errno 0 on success."""
		return self.reply(self.send(mtype, flags | NLM_F_ACK, body))

	def reply(self, seq):
		"""The answer to request SEQ: (errno, extack message)."""
		while True:
			data = self.s.recv(1 << 20)
			off = 0
			while off + 16 <= len(data):
				ln, t, _, sq, _ = struct.unpack_from("IHHII", data, off)
				if t == NLMSG_ERROR and sq == seq:
					err = -struct.unpack_from("i", data, off + 16)[0]
					text = ""
					a = parse_attrs(data, off + 36, off + ln)
					if NLMSGERR_ATTR_MSG in a:
						text = a[NLMSGERR_ATTR_MSG].split(b"\0")[0]
						text = text.decode()
					return err, text
				off += (ln + 3) & ~3

	def dump(self, mtype, body):
		"""The messages of a dump: (tcmsg fields, attributes)."""
		seq = self.send(mtype, NLM_F_ROOT | NLM_F_MATCH, body)
		out = []
		while True:
			data = self.s.recv(1 << 20)
			off = 0
			while off + 16 <= len(data):
				ln, t, _, sq, _ = struct.unpack_from("IHHII", data, off)
				if sq == seq:
					if t == NLMSG_DONE:
						return out
					if t == NLMSG_ERROR:
						raise Refused("dump failed")
					tcm = struct.unpack_from("BxxxiIII", data, off + 16)
					out.append((tcm, parse_attrs(data, off + 36, off + ln)))
				off += (ln + 3) & ~3


def tcmsg(ifindex, handle, parent):
	return struct.pack("BxxxiIII", socket.AF_UNSPEC, ifindex, handle, parent, 0)


def sh(cmd):
	subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)


class Slot:
	"""One place a ddl lives: DEV's qdisc with parent PARENT."""

	def __init__(self, name, dev, parent, major_base):
		self.name, self.dev, self.parent = name, dev, parent
		self.ifindex = socket.if_nametoindex(dev)
		self.next_major = major_base
		self.major_base = major_base
		self.handle = None	# the qdisc at PARENT: (handle, kind)
		self.kind = None
		self.cfg = None		# the ddl's configuration, if kind is ddl
		self.weights = None

	def new_handle(self):
		self.next_major += 1
		if self.next_major >= self.major_base + 0x400:
			self.next_major = self.major_base + 1
		return self.next_major << 16


class Model:
	"""What sch_ddl accepts and then dumps (kmod/sch_ddl_main.c's parse,
	as tc-ddl.8 describes it)."""

	@staticmethod
	def apply(old, tb, create):
		"""tb: name -> value, after validation.  Returns the new
		configuration or raises Refused."""
		p = dict(old)
		for k in ("limit", "mode", "slice", "yield", "maxwait", "bgshare",
			  "key", "keyttl", "memory_limit", "share"):
			if k in tb:
				p[k] = tb[k]
		if "jobs" in tb and tb["jobs"] != p["jobs"] and not create:
			raise Refused("jobs fixed")
		if "jobs" in tb:
			p["jobs"] = tb["jobs"]
		if p["slice"] != AUTO and not 100 <= p["slice"] <= 10000000:
			raise Refused("slice range")
		if p["yield"] != AUTO and p["yield"] > 10000000:
			raise Refused("yield range")
		if p["slice"] != AUTO:
			if p["yield"] and p["yield"] != AUTO and p["yield"] >= p["slice"]:
				raise Refused("yield >= slice")
			if p["maxwait"] < p["slice"]:
				raise Refused("maxwait < slice")
		if "rate" in tb:
			r = tb["rate"]
			if r == 0:
				raise Refused("rate 0")
			if r == RATE_NONE:
				p["rate"], p["burst"] = 0, 0
			elif not 125 <= r <= 125000000000:
				raise Refused("rate range")
			else:
				p["rate"] = r
		if "target" in tb and "target_time" in tb:
			raise Refused("both targets")
		if "target" in tb:
			p["target"], p["target_time"] = tb["target"], 0
		if "target_time" in tb:
			p["target_time"], p["target"] = tb["target_time"], 0
			if p["target_time"] != AUTO and p["target_time"] > 10000000:
				raise Refused("target time range")
		for k in ("burst", "interval", "ecn", "lead", "maxperiod",
			  "epoch", "base"):
			if k in tb:
				p[k] = tb[k]
		if p["lead"] != AUTO and p["lead"] > 10000000:
			raise Refused("lead range")
		if "burst" in tb and p["burst"] and not p["rate"]:
			raise Refused("burst needs rate")
		# target auto: 2 ms at the rate, at least 3028 bytes; none
		# without a rate; never refused.  lead auto follows the target.
		auto = p["target_time"] == AUTO
		if p["target_time"] and not auto and not p["rate"]:
			raise Refused("target time needs rate")
		tbytes = p["target"]
		if p["rate"] and auto and not p["target"]:
			tbytes = max(3028, 2000 * p["rate"] // 1000000)
		elif p["rate"] and p["target_time"] and not auto:
			tbytes = p["target_time"] * p["rate"] // 1000000
		if (not auto and
		    (create or any(k in tb for k in ("limit", "rate", "target",
						     "target_time")))
		    and tbytes > p["limit"] * MTU):
			raise Refused("target > limit")
		if not auto and (p["target"] or p["target_time"]) and not tbytes:
			raise Refused("target < 1 byte")
		if p["lead"] == AUTO:
			return p
		if p["lead"] and not tbytes:
			raise Refused("lead needs target")
		if p["lead"] * 2 >= p["maxperiod"]:
			raise Refused("lead >= maxperiod / 2")
		return p

	@staticmethod
	def dumped(p):
		"""The options as ddl_dump() prints them."""
		d = {k: v for k, v in p.items() if k not in ("target", "target_time")}
		d["rate"] = p["rate"] or RATE_NONE
		if p["target_time"]:
			d["target_time"] = p["target_time"]
		else:
			d["target"] = p["target"]
		return d


def decode_opts(raw):
	a = parse_attrs(raw, 0, len(raw))
	out = {}
	for t, v in a.items():
		name = BY_TYPE.get(t)
		if name is None:
			continue
		out[name] = struct.unpack("Q" if len(v) == 8 else "I", v)[0]
	return out


class Fuzzer:
	def __init__(self, seed):
		self.rng = random.Random(seed)
		self.seed = seed
		self.nl = Netlink()
		self.findings = []
		self.stats = {"accepted": 0, "refused": 0, "core-silent": 0}
		self.step = 0

	# -- set-up -------------------------------------------------------

	def setup(self):
		cmds = [
			"ip link add fz0 type dummy",
			"ip link add fz1 type dummy",
			"ip link add fz2 type dummy",
			"ip link add fz3 type dummy",
			"ip link add fz4 numtxqueues 4 type dummy",
			"ip link add fz5 numtxqueues 4 type dummy",
			"tc qdisc add dev fz1 root handle 1: prio",
			"tc qdisc add dev fz2 root handle 1: htb default 10",
			"tc class add dev fz2 parent 1: classid 1:10 htb rate 100mbit quantum 1514",
			"tc qdisc add dev fz3 root handle 1: tbf rate 10mbit "
			"burst 10k latency 50ms",
			"tc qdisc add dev fz4 root handle 1: mq",
		]
		for c in cmds:
			sh(c)
		for d in range(6):
			sh("ip link set fz%d up" % d)
		self.slots = [
			Slot("root", "fz0", TC_H_ROOT, 0x100),
			Slot("prio", "fz1", 0x10002, 0x600),
			Slot("htb", "fz2", 0x10010, 0xA00),
			Slot("tbf", "fz3", 0x10001, 0xE00),
			Slot("mq", "fz4", 0x10003, 0x1200),
			Slot("mq-dev root", "fz5", TC_H_ROOT, 0x1600),
		]
		for s in self.slots:
			self.observe(s)

	def teardown(self):
		for d in range(6):
			subprocess.run(["ip", "link", "del", "fz%d" % d],
				       stderr=subprocess.DEVNULL)

	# -- reading the kernel's state --------------------------------------

	def qdisc_at(self, slot):
		"""(handle, kind, options dict) of the qdisc at the slot."""
		for tcm, a in self.nl.dump(RTM_GETQDISC, tcmsg(0, 0, 0)):
			_, ifindex, handle, parent, _ = tcm
			if ifindex != slot.ifindex or parent != slot.parent:
				continue
			kind = a.get(TCA_KIND, b"").split(b"\0")[0].decode()
			opts = decode_opts(a[TCA_OPTIONS]) if kind == "ddl" and \
				TCA_OPTIONS in a else None
			return handle, kind, opts
		return None, None, None

	def weights_of(self, slot, handle=None):
		if handle is None:
			handle = slot.handle
		w = {}
		for tcm, a in self.nl.dump(RTM_GETTCLASS,
					   tcmsg(slot.ifindex, 0, 0)):
			if tcm[2] >> 16 != handle >> 16:
				continue
			if a.get(TCA_KIND, b"").split(b"\0")[0] != b"ddl":
				continue
			opts = parse_attrs(a.get(TCA_OPTIONS, b""), 0,
					   len(a.get(TCA_OPTIONS, b"")))
			w[tcm[2] & 0xFFFF] = struct.unpack("I", opts[1])[0] \
				if 1 in opts else None
		return w

	def observe(self, slot):
		slot.handle, slot.kind, opts = self.qdisc_at(slot)
		slot.cfg = opts
		slot.weights = self.weights_of(slot) if slot.kind == "ddl" else None

	def expect_weights(self, jobs):
		w = {m: 1 for m in range(1, jobs + 1)}
		w[BG_MINOR] = None
		return w

	# -- generating options ------------------------------------------------

	def value(self, name):
		_, size, lo, hi = ATTRS[name]
		r = self.rng.random()
		top = U64_MAX if size == 8 else U32_MAX
		if name == "base":	# every u64 is a base
			return self.rng.choice([0, 1, self.rng.randint(0, top),
						top])
		if r < 0.55:
			# Mostly valid and small enough to combine.
			if name == "slice" and self.rng.random() < 0.5:
				return AUTO
			if name == "yield" and self.rng.random() < 0.4:
				return AUTO
			if name == "rate" and self.rng.random() < 0.3:
				return RATE_NONE
			if name == "jobs":
				return self.rng.choice([1, 2, 3, 4, 8, 16, 64, 4096])
			if name in ("target", "burst"):
				return self.rng.randint(0, 100000)
			if name in ("lead", "target_time"):
				if self.rng.random() < 0.2:
					return AUTO
				return self.rng.randint(0, 20000)
			hi2 = min(hi, lo + 1000000)
			return self.rng.randint(lo, hi2)
		cands = [0, 1, lo, hi, top, top - 1, AUTO]
		if hi < top:
			cands.append(hi + 1)
		if lo:
			cands.append(lo - 1)
		if size == 8:
			cands += [1 << 32, U32_MAX, 125, 124]
		return self.rng.choice(cands)

	def options(self, class_opts=False):
		"""(bytes of TCA_OPTIONS or None, tb the model sees or None if
		malformed: the kernel must refuse)."""
		if class_opts:
			names = {"weight": (1, 4, 1, 256)}
		else:
			names = ATTRS
		n = self.rng.choice([0, 1, 1, 2, 2, 3, 4, 6])
		keys = self.rng.sample(sorted(names), min(n, len(names)))
		items = []
		for k in keys:
			if class_opts:
				v = self.rng.choice([0, 1, 2, 7, 255, 256, 257,
						     U32_MAX, self.rng.randint(1, 256)])
			else:
				v = self.value(k)
			items.append((k, v))
		if not class_opts and self.rng.random() < 0.3:
			items = self.straddle(items)
		malform = self.rng.random() < 0.2
		kind = None
		if malform:
			kind = self.rng.choice(["short", "long", "dup", "unknown",
						"notnested", "truncated", "tiny"])
			if kind in ("short", "long", "truncated") and not items:
				kind = "unknown"
		enc = b""
		tb = {}
		table = names
		for i, (k, v) in enumerate(items):
			atype, size = table[k][0], table[k][1]
			payload = struct.pack("Q" if size == 8 else "I", v)
			if kind == "short" and i == 0:
				payload = payload[:2]
			if kind == "long" and i == 0:
				payload += b"\0\0\0\0"
			enc += attr(atype, payload)
			tb[k] = v
		if kind == "dup":
			if items and self.rng.random() < 0.7:
				k, _ = self.rng.choice(items)
			else:
				k = self.rng.choice(sorted(table))
			v = self.value(k) if not class_opts else \
				self.rng.choice([1, 3, 256, 300])
			atype, size = table[k][0], table[k][1]
			enc += attr(atype, struct.pack("Q" if size == 8 else "I", v))
			tb["__dup__"] = (k, v)
		if kind == "unknown":
			t = self.rng.choice([0, 1, ATTR_MAX + 1, 200, 0x3FFF]) \
				if not class_opts else self.rng.choice([0, 4, 100])
			enc += attr(t, struct.pack("I", 5))
		if kind == "truncated":
			# The first attribute claims more than it has: it runs
			# past the nest, or into the next attribute.
			alen = struct.unpack_from("H", enc, 0)[0]
			enc = struct.pack("H", alen + 8) + enc[2:]
		if kind == "tiny":
			enc += struct.pack("HH", 2, 3)
		flag = 0 if kind == "notnested" else NLA_F_NESTED
		if kind == "notnested" and not enc:
			enc = attr(2, struct.pack("I", 10))
		raw = attr(TCA_OPTIONS | flag, enc)
		if kind in ("short", "long", "unknown", "notnested", "truncated",
			    "tiny"):
			return raw, None, kind
		return raw, tb, kind

	def straddle(self, items):
		"""Values on either side of a rule that ties two options."""
		rng = self.rng
		d = dict(items)
		c = rng.randint(0, 6)
		if c == 0:
			d["slice"] = rng.randint(100, 100000)
			d["yield"] = d["slice"] + rng.choice([-1, 0, 1])
			d["maxwait"] = max(d["slice"], 1000)
		elif c == 1:
			d["slice"] = rng.randint(1000, 100000)
			d["maxwait"] = d["slice"] + rng.choice([-1, 0, 1])
		elif c == 2:
			d["maxperiod"] = rng.randint(1000, 100000)
			d["lead"] = d["maxperiod"] // 2 + rng.choice([-1, 0, 1])
			d["target"] = rng.choice([0, 1, 3000])
		elif c == 3:
			d["limit"] = rng.randint(1, 100)
			d["target"] = d["limit"] * MTU + rng.choice([0, 1])
		elif c == 4:
			d["rate"] = rng.choice([125, 1000, 125000000])
			t = 1000000 // d["rate"]
			d["target_time"] = max(t + rng.choice([-1, 0, 1]), 0)
		elif c == 5:
			d["rate"] = rng.choice([RATE_NONE, 125000])
			d["burst"] = rng.choice([0, 1, 3000])
		else:
			d["limit"] = rng.randint(1, 10)
			d["rate"] = rng.choice([1250000, 125000000])
			d["target_time"] = d["limit"] * MTU * 1000000 // d["rate"] + \
				rng.choice([0, 1, 2])
		items = sorted(d.items())
		rng.shuffle(items)
		return items

	def class_valid(self, tb):
		"""The class options' model: the weights set, or Refused."""
		if "__dup__" in tb:
			# The last copy counts, and only its value is checked
			# (ddl_class_policy checks types only).
			k, v = tb.pop("__dup__")
			tb[k] = v
		if "weight" in tb and not 1 <= tb["weight"] <= 256:
			raise Refused("weight range")
		return tb

	def qdisc_valid(self, tb):
		if "__dup__" in tb:
			# The last copy counts, and only its value is checked
			# (ddl_policy checks types only).
			k, v = tb.pop("__dup__")
			tb[k] = v
		for k, v in tb.items():
			if not self.in_range(k, v):
				raise Refused("range " + k)
		return tb

	@staticmethod
	def in_range(k, v):
		"""ddl_check_ranges()'s plain ranges (slice, yield, rate,
		target_time and lead, which take a special value too: in
		predict())."""
		_, size, lo, hi = ATTRS[k]
		if k in ("slice", "yield", "rate", "target_time", "lead"):
			return True
		if k == "share" and v == AUTO:
			return True
		return lo <= v <= hi

	# -- one request ---------------------------------------------------

	def finding(self, slot, what, desc):
		msg = "seed %d step %d slot %s %s: %s" % (self.seed, self.step,
							  slot.name, what, desc)
		self.findings.append(msg)
		print("# finding: " + msg, flush=True)

	def check_state(self, slot, what, want_cfg, want_weights):
		handle, kind, opts = self.qdisc_at(slot)
		if want_cfg is None:
			return handle, kind
		if kind != "ddl":
			self.finding(slot, what, "no ddl after the request (%s)" % kind)
			return handle, kind
		want = Model.dumped(want_cfg)
		if opts != want:
			diff = {k: (opts.get(k), want.get(k)) for k in
				set(opts) | set(want) if opts.get(k) != want.get(k)}
			self.finding(slot, what, "options differ (got, want): %r" % diff)
		if want_weights is not None:
			w = self.weights_of(slot, handle)
			if w != want_weights:
				diff = {k: (w.get(k), want_weights.get(k)) for k in
					set(w) | set(want_weights)
					if w.get(k) != want_weights.get(k)}
				self.finding(slot, what, "class weights differ: %r" %
					     dict(list(diff.items())[:8]))
		return handle, kind

	def ddl_body(self, slot, handle, opts):
		body = tcmsg(slot.ifindex, handle, slot.parent)
		body += attr(TCA_KIND, b"ddl\0")
		if opts is not None:
			body += opts
		return body

	def one(self):
		slot = self.rng.choice(self.slots)
		have = slot.kind == "ddl"
		r = self.rng.random()
		if not have or r < 0.25:
			return self.q_create(slot)
		if r < 0.5:
			return self.q_change(slot, same_handle_replace=False)
		if r < 0.55:
			return self.q_change(slot, same_handle_replace=True)
		if r < 0.57:
			return self.q_excl(slot)
		if r < 0.62:
			return self.q_delete(slot)
		if r < 0.65:
			return self.q_graft_other(slot)
		if r < 0.67:
			return self.q_orphan(slot)
		if r < 0.92:
			return self.c_change(slot)
		return self.c_delete(slot)

	def outcome(self, slot, what, err, text, predicted, new_cfg,
		    new_weights, old_cfg, old_weights, old_handle):
		"""Check one answer against the model."""
		key = "%s %s" % (what, "ok" if not err else "refused")
		self.stats[key] = self.stats.get(key, 0) + 1
		if err == 0:
			self.stats["accepted"] += 1
			if predicted is not None:
				self.finding(slot, what, "accepted; the model refuses (%s)"
					     % predicted)
				self.observe(slot)
				return
			handle, _ = self.check_state(slot, what, new_cfg, new_weights)
			slot.handle, slot.kind = handle, "ddl"
			slot.cfg = new_cfg
			slot.weights = new_weights
			return
		self.stats["refused"] += 1
		if (what, err) in CORE_SILENT and not text:
			self.stats["core-silent"] += 1
		elif not text:
			self.finding(slot, what, "refused (errno %d) without an extack "
				     "message" % err)
		if predicted is None and err != 12:
			self.finding(slot, what, "refused (errno %d: %s); the model "
				     "accepts" % (err, text))
		handle, kind = self.check_state(slot, what + " (refused)", old_cfg,
						old_weights)
		if handle != old_handle:
			self.finding(slot, what, "refused, but the qdisc changed "
				     "(%x -> %x)" % (old_handle or 0, handle or 0))
		self.observe(slot)

	def predict(self, base, tb, kind, create):
		"""(why the model refuses or None, the configuration after)."""
		if tb is None:
			return "malformed " + kind, None
		try:
			return None, Model.apply(base, self.qdisc_valid(dict(tb)),
						 create)
		except Refused as e:
			return str(e), None

	def q_create(self, slot):
		opts, tb, kind = self.options()
		if self.rng.random() < 0.05:
			opts = None
			tb = {}
		# A ddl on one queue under mq takes mode cluster (4) by default.
		base = dict(DEFAULTS, mode=4) if slot.name == "mq" else DEFAULTS
		predicted, new_cfg = self.predict(base, tb, kind, True)
		old = (slot.cfg and self.model_cfg(slot), slot.weights, slot.handle)
		handle = slot.new_handle()
		err, text = self.nl.request(RTM_NEWQDISC,
					    NLM_F_CREATE | NLM_F_REPLACE,
					    self.ddl_body(slot, handle, opts))
		weights = self.expect_weights(new_cfg["jobs"]) if new_cfg else None
		self.outcome(slot, "create", err, text, predicted, new_cfg, weights,
			     old[0], old[1], old[2])

	def model_cfg(self, slot):
		"""The slot's configuration in the model's form (from the dump:
		every field is there)."""
		c = dict(slot.cfg)
		if c.get("rate") == RATE_NONE:
			c["rate"] = 0
		c.setdefault("target", 0)
		c.setdefault("target_time", 0)
		return c

	def q_change(self, slot, same_handle_replace):
		opts, tb, kind = self.options()
		if self.rng.random() < 0.03:
			opts, tb = None, {}
		old_cfg = self.model_cfg(slot)
		predicted, new_cfg = self.predict(old_cfg, tb, kind, False)
		if opts is None:
			new_cfg = old_cfg
		flags = NLM_F_CREATE | NLM_F_REPLACE if same_handle_replace else 0
		what = "replace" if same_handle_replace else "change"
		err, text = self.nl.request(RTM_NEWQDISC, flags,
					    self.ddl_body(slot, slot.handle, opts))
		self.outcome(slot, what, err, text, predicted, new_cfg,
			     slot.weights, old_cfg, slot.weights, slot.handle)

	def q_excl(self, slot):
		old_cfg = self.model_cfg(slot)
		err, text = self.nl.request(RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
					    self.ddl_body(slot, slot.handle, None))
		self.outcome(slot, "excl", err, text, "exists", None, None, old_cfg,
			     slot.weights, slot.handle)

	def q_delete(self, slot):
		body = tcmsg(slot.ifindex, slot.handle, slot.parent)
		err, text = self.nl.request(RTM_DELQDISC, 0, body)
		self.stats["accepted" if not err else "refused"] += 1
		if err:
			self.finding(slot, "delete", "refused: %d %s" % (err, text))
		self.observe(slot)
		if slot.kind == "ddl":
			self.finding(slot, "delete", "ddl still there")

	def q_graft_other(self, slot):
		kind = self.rng.choice([b"pfifo\0", b"fq_codel\0"])
		body = tcmsg(slot.ifindex, slot.new_handle(), slot.parent)
		body += attr(TCA_KIND, kind)
		err, text = self.nl.request(RTM_NEWQDISC,
					    NLM_F_CREATE | NLM_F_REPLACE, body)
		self.stats["accepted" if not err else "refused"] += 1
		if err:
			self.finding(slot, "graft", "refused: %d %s" % (err, text))
		self.observe(slot)

	def q_orphan(self, slot):
		"""A create under a parent that does not exist."""
		opts, _, _ = self.options()
		body = tcmsg(slot.ifindex, slot.new_handle(), 0x7FFF0001)
		body += attr(TCA_KIND, b"ddl\0") + opts
		old_cfg = self.model_cfg(slot)
		err, text = self.nl.request(RTM_NEWQDISC,
					    NLM_F_CREATE | NLM_F_REPLACE, body)
		self.outcome(slot, "orphan", err, text, "no such parent", None, None,
			     old_cfg, slot.weights, slot.handle)

	def minor(self, jobs):
		return self.rng.choice([0, 1, jobs, jobs + 1, BG_MINOR, 0xFFFE,
					self.rng.randint(1, jobs),
					self.rng.randint(1, 0xFFFF)])

	def c_change(self, slot):
		jobs = slot.cfg["jobs"]
		minor = self.minor(jobs)
		major = slot.handle
		what = "class"
		if self.rng.random() < 0.05:
			major = 0x7FFF0000	# no such qdisc
			what = "class-noqdisc"
		classid = major | minor
		opts, tb, kind = self.options(class_opts=True)
		if self.rng.random() < 0.1:
			opts, tb = None, {}
		old_cfg = self.model_cfg(slot)
		predicted = None
		weights = dict(slot.weights)
		exists = 1 <= minor <= jobs or minor == BG_MINOR
		if major != slot.handle:
			predicted = "no such qdisc"
		elif not exists:
			predicted = "classes are fixed"
		elif opts is None:
			predicted = "no options"
		elif tb is None:
			predicted = "malformed " + kind
		else:
			try:
				tb = self.class_valid(dict(tb))
				if "weight" in tb:
					if minor == BG_MINOR:
						raise Refused("background weight")
					weights[minor] = tb["weight"]
			except Refused as e:
				predicted = str(e)
		flags = NLM_F_CREATE
		if exists and major == slot.handle and self.rng.random() < 0.05:
			flags |= NLM_F_EXCL
			what = "class-excl"
			predicted = "exists"
		body = tcmsg(slot.ifindex, classid, major)
		if opts is not None:
			body += opts
		err, text = self.nl.request(RTM_NEWTCLASS, flags, body)
		self.outcome(slot, what, err, text, predicted, old_cfg, weights,
			     old_cfg, slot.weights, slot.handle)

	def c_delete(self, slot):
		jobs = slot.cfg["jobs"]
		minor = self.minor(jobs)
		exists = 1 <= minor <= jobs or minor == BG_MINOR
		what = "class-delete" if exists else "class-delete-missing"
		old_cfg = self.model_cfg(slot)
		body = tcmsg(slot.ifindex, slot.handle | minor, slot.handle)
		err, text = self.nl.request(RTM_DELTCLASS, 0, body)
		self.outcome(slot, what, err, text, "fixed classes", None,
			     None, old_cfg, slot.weights, slot.handle)


def main():
	args = sys.argv[1:]
	seed, count, secs, rounds = 1, 1000, 0, 1
	while args:
		a = args.pop(0)
		if a == "--seed":
			seed = int(args.pop(0))
		elif a == "--count":
			count = int(args.pop(0))
		elif a == "--secs":
			secs = int(args.pop(0))
			rounds = 1 << 30
		elif a == "--rounds":
			rounds = int(args.pop(0))
		else:
			sys.exit(__doc__)
	start = time.monotonic()
	total, found, sent = 0, 0, 0
	stats = {}
	for r in range(rounds):
		if secs and r and time.monotonic() - start > secs:
			break
		if secs:
			print("# round seed %d" % (seed + r), flush=True)
		fz = Fuzzer(seed + r)
		fz.teardown()
		fz.setup()
		for i in range(count):
			fz.step = i
			try:
				fz.one()
			except (OSError, Refused) as e:
				fz.finding(fz.slots[0], "netlink", repr(e))
				break
			if len(fz.findings) >= 20:
				break
		fz.teardown()
		total += fz.step + 1
		sent += fz.nl.sent
		for k, v in fz.stats.items():
			stats[k] = stats.get(k, 0) + v
		desc = "fuzz round seed %d: %d requests, model and kernel agree" % (
			seed + r, fz.step + 1)
		if fz.findings:
			found += len(fz.findings)
			print("not ok - %s (%d findings; replay: --seed %d --count %d)"
			      % (desc, len(fz.findings), seed + r, count), flush=True)
		else:
			print("ok - " + desc, flush=True)
	el = time.monotonic() - start
	print("# fuzz: %d requests (%d netlink messages with the dumps) in %.0f s, "
	      "%d rounds, %d findings; %r" % (total, sent, el, r + 1, found, stats))
	sys.exit(1 if found else 0)


if __name__ == "__main__":
	main()
