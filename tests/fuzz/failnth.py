#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Systematic fault injection into sch_ddl's control path.

usage: failnth.py [--max N] [OPERATION...]

For each operation, for n = 1, 2, ...: set the state the operation starts
from, make the n-th slab or page allocation of this task fail
(/proc/thread-self/fail-nth), send the operation's one rtnetlink request,
and check:
  - it succeeded, and the state is what the operation makes; or it failed
    with ENOMEM or ENOBUFS and the state is exactly as before: the qdisc,
    every option, every class weight, the debugfs directories and the
    module's reference count; or the answer was lost (the ack's own
    allocation failed) and the state is one of the two;
until an operation completes without the fault being injected: n - 1 is
the number of allocations on that path.  Leaks and splats are the debug
kernel's to find (kmemleak's scan at the end of the guest, the log).

Operations: init-1 and init-4096 (create with 1 and 4096 jobs, debugfs on),
change-OPTION for every option, class (a weight), class-addr (a weight and
addresses), delete.  Prints one
"ok - ..." or "not ok - ..." line per operation with its allocation count.
"""
import errno
import os
import socket
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nlfuzz as nf  # noqa: E402

DEV = "fi0"
HANDLE = 0x10000
DEBUGFS = "/sys/kernel/debug/sch_ddl"

# change-NAME: the change, on top of the base; each differs from the base
# in that option.
BASE = {"jobs": 8, "rate": 12500000, "target": 30000}
CHANGES = {
	"limit": {"limit": 500},
	"mode": {"mode": 1},
	"slice": {"slice": 5000},
	"yield": {"yield": 2000},
	"maxwait": {"maxwait": 200000},
	"bgshare": {"bgshare": 20},
	"key": {"key": 2},
	"keyttl": {"keyttl": 3000},
	"rate": {"rate": 25000000},
	"burst": {"burst": 40000},
	"target": {"target": 20000},
	"target_time": {"target_time": 2000},
	"interval": {"interval": 20000},
	"ecn": {"ecn": 0},
	"lead": {"lead": 5000},
	"maxperiod": {"maxperiod": 2000000},
}


def opts(d):
	enc = b""
	for k, v in d.items():
		atype, size = nf.ATTRS[k][0], nf.ATTRS[k][1]
		enc += nf.attr(atype, struct.pack("Q" if size == 8 else "I", v))
	return nf.attr(nf.TCA_OPTIONS | nf.NLA_F_NESTED, enc)


class Injector:
	def __init__(self):
		for name in ("failslab", "fail_page_alloc"):
			d = "/sys/kernel/debug/" + name
			with open(d + "/ignore-gfp-wait", "w") as f:
				f.write("N")
			with open(d + "/verbose", "w") as f:
				f.write("0")
		with open("/sys/kernel/debug/fail_page_alloc/min-order", "w") as f:
			f.write("0")
		self.fd = os.open("/proc/thread-self/fail-nth", os.O_RDWR)
		self.nl = nf.Netlink()
		self.nl.s.settimeout(10)
		subprocess.run(["ip", "link", "add", DEV, "type", "dummy"],
			       check=True)
		subprocess.run(["ip", "link", "set", DEV, "up"], check=True)
		self.ifindex = socket.if_nametoindex(DEV)
		self.failed = 0

	def request(self, mtype, flags, body, nth):
		"""Send with the nth allocation failing (0: none).  Returns
		(errno or None if the answer was lost, injected?)."""
		# Built before arming: nothing but send() may allocate then.
		self.nl.seq += 1
		msg = struct.pack("IHHII", 16 + len(body), mtype,
				  flags | nf.NLM_F_REQUEST | nf.NLM_F_ACK,
				  self.nl.seq, 0) + body
		sock, fd = self.nl.s, self.fd
		arm, disarm = str(nth).encode(), b"0"
		if nth:
			os.pwrite(fd, arm, 0)
		try:
			sock.send(msg)
			sent = None
		except OSError as e:
			sent = e.errno
		left = int(os.pread(fd, 16, 0)) if nth else 1
		os.pwrite(fd, disarm, 0)
		injected = nth and left == 0
		if sent is not None:
			return sent, injected
		try:
			err, _ = self.nl.reply(self.nl.seq)
		except OSError as e:
			if e.errno in (errno.ENOBUFS, errno.EAGAIN) or \
			   isinstance(e, socket.timeout):
				self.reopen()
				return None, injected
			raise
		return err, injected

	def reopen(self):
		self.nl.s.close()
		self.nl = nf.Netlink()
		self.nl.s.settimeout(10)

	# -- state ----------------------------------------------------------

	def state(self):
		root = None
		for tcm, a in self.nl.dump(nf.RTM_GETQDISC, nf.tcmsg(0, 0, 0)):
			if tcm[1] == self.ifindex and tcm[3] == nf.TC_H_ROOT:
				kind = a.get(nf.TCA_KIND, b"").split(b"\0")[0].decode()
				o = nf.decode_opts(a[nf.TCA_OPTIONS]) \
					if kind == "ddl" else None
				root = (tcm[2], kind, tuple(sorted(o.items())) if o else None)
		if root and root[1] != "ddl":
			# The device's default qdisc: the tc core falls back
			# from pfifo_fast to noqueue when it cannot allocate.
			root = "default"
		w = {}
		# 4097 classes take seconds to dump on the debug kernel: a
		# big instance's classes are fixed by jobs, as the tests of
		# ddl_walk() show.
		if root and root != "default" and dict(root[2])["jobs"] <= 64:
			for tcm, a in self.nl.dump(nf.RTM_GETTCLASS,
						   nf.tcmsg(self.ifindex, 0, 0)):
				o = nf.parse_attrs(a.get(nf.TCA_OPTIONS, b""), 0,
						   len(a.get(nf.TCA_OPTIONS, b"")))
				w[tcm[2] & 0xFFFF] = struct.unpack("I", o[1])[0] \
					if 1 in o else None
		dirs = tuple(sorted(os.listdir(DEBUGFS))) \
			if os.path.isdir(DEBUGFS) else ()
		with open("/sys/module/sch_ddl/refcnt") as f:
			ref = int(f.read())
		return {"root": root, "weights": w, "debugfs": dirs, "refcnt": ref}

	# Set-ups through netlink: a tc process costs half a second on the
	# debug kernel, and the sweeps make hundreds.
	def clear(self):
		self.nl.request(nf.RTM_DELQDISC, 0,
				nf.tcmsg(self.ifindex, 0, nf.TC_H_ROOT))

	# -- one operation, swept -------------------------------------------

	def sweep(self, name, setup, mtype, flags, body, nmax):
		"""Returns the number of allocations on the path, or None."""
		setup()
		before = self.state()
		err, _ = self.request(mtype, flags, body, 0)
		if err:
			self.fail(name, "fails without injection: errno %d" % err)
			return None
		after = self.state()
		problems = []
		n = 1
		while n <= nmax:
			setup()
			b = self.state()
			if b != before:
				problems.append("n=%d: set-up gave another state" % n)
				break
			err, injected = self.request(mtype, flags, body, n)
			s = self.state()
			if not injected:
				if err != 0 or s != after:
					problems.append("n=%d: not injected, but errno %s" %
							(n, err))
				break
			if err == 0:
				ok = self.same_but_debugfs(s, after)
				if not ok:
					problems.append("n=%d: succeeded with another "
							"state: %s" % (n, self.diff(s, after)))
			elif err is None:
				if s != before and not self.same_but_debugfs(s, after):
					problems.append("n=%d: answer lost, state neither "
							"before nor after: %s" %
							(n, self.diff(s, before)))
			elif err in (errno.ENOMEM, errno.ENOBUFS):
				if s != before:
					problems.append("n=%d: errno %d, state changed: %s" %
							(n, err, self.diff(s, before)))
			else:
				problems.append("n=%d: errno %d" % (n, err))
			if len(problems) > 5:
				break
			n += 1
		else:
			problems.append("still injecting after %d" % nmax)
		self.clear()
		if problems:
			self.fail(name, "; ".join(problems))
			return None
		print("ok - fault injection: %s: each of its %d allocations failed "
		      "in turn, clean error or success, state intact" % (name, n - 1),
		      flush=True)
		return n - 1

	@staticmethod
	def same_but_debugfs(s, want):
		"""A success may leave the instance without its debugfs
		directory: the directory is best effort (ddl_debugfs_add())."""
		if s == want:
			return True
		a = {k: v for k, v in s.items() if k != "debugfs"}
		b = {k: v for k, v in want.items() if k != "debugfs"}
		return a == b and set(s["debugfs"]) <= set(want["debugfs"])

	@staticmethod
	def diff(a, b):
		return {k: (a[k], b[k]) for k in a if a[k] != b[k]}

	def fail(self, name, why):
		self.failed += 1
		print("not ok - fault injection: %s: %s" % (name, why[:2000]),
		      flush=True)

	# -- the operations ----------------------------------------------------

	def body(self, d, handle=HANDLE):
		return nf.tcmsg(self.ifindex, handle, nf.TC_H_ROOT) + \
			nf.attr(nf.TCA_KIND, b"ddl\0") + (opts(d) if d is not None else b"")

	def op_init(self, jobs, nmax):
		return self.sweep("init, %d jobs, debugfs on" % jobs, self.clear,
				  nf.RTM_NEWQDISC, nf.NLM_F_CREATE | nf.NLM_F_EXCL,
				  self.body({"jobs": jobs}), nmax)

	def base(self):
		self.clear()
		err, text = self.nl.request(nf.RTM_NEWQDISC,
					    nf.NLM_F_CREATE | nf.NLM_F_EXCL,
					    self.body(BASE))
		if err:
			raise OSError(err, "base: " + text)

	def op_change(self, opt, nmax):
		return self.sweep("change %s" % opt, self.base, nf.RTM_NEWQDISC, 0,
				  self.body(CHANGES[opt]), nmax)

	def op_class(self, nmax):
		body = nf.tcmsg(self.ifindex, HANDLE | 3, HANDLE) + \
			nf.attr(nf.TCA_OPTIONS | nf.NLA_F_NESTED,
				nf.attr(1, struct.pack("I", 7)))
		return self.sweep("class change (weight)", self.base,
				  nf.RTM_NEWTCLASS, 0, body, nmax)

	def op_class_addr(self, nmax):
		"""A weight and two addresses (198.18.2.2, 2001:db8::2): a
		failed allocation of the set leaves the weight as it was."""
		v4 = bytes(10) + b"\xff\xff" + bytes([198, 18, 2, 2])
		v6 = bytes([0x20, 0x01, 0x0d, 0xb8]) + bytes(11) + b"\x02"
		body = nf.tcmsg(self.ifindex, HANDLE | 3, HANDLE) + \
			nf.attr(nf.TCA_OPTIONS | nf.NLA_F_NESTED,
				nf.attr(1, struct.pack("I", 7)) +
				nf.attr(5, v4 + v6))
		return self.sweep("class change (weight, addresses)", self.base,
				  nf.RTM_NEWTCLASS, 0, body, nmax)

	def op_delete(self, nmax):
		body = nf.tcmsg(self.ifindex, HANDLE, nf.TC_H_ROOT)
		return self.sweep("delete", self.base, nf.RTM_DELQDISC, 0, body,
				  nmax)


def main():
	args = sys.argv[1:]
	nmax = 400
	if args[:1] == ["--max"]:
		nmax = int(args[1])
		args = args[2:]
	ops = args or (["init-1", "init-4096"] +
		       ["change-" + k for k in CHANGES] +
		       ["class", "class-addr", "delete"])
	inj = Injector()
	counts = {}
	for op in ops:
		t = time.monotonic()
		if op.startswith("init-"):
			c = inj.op_init(int(op[5:]), nmax)
		elif op.startswith("change-"):
			c = inj.op_change(op[7:], nmax)
		elif op == "class":
			c = inj.op_class(nmax)
		elif op == "class-addr":
			c = inj.op_class_addr(nmax)
		elif op == "delete":
			c = inj.op_delete(nmax)
		else:
			sys.exit("unknown operation " + op)
		counts[op] = c
		print("# %s: %.1f s" % (op, time.monotonic() - t), flush=True)
	print("# fault injection: allocations per operation: " +
	      ", ".join("%s %s" % kv for kv in counts.items()))
	print("# fault injection: %d injections in all" %
	      sum(c for c in counts.values() if c))
	subprocess.run(["ip", "link", "del", DEV])
	sys.exit(1 if inj.failed else 0)


main()
