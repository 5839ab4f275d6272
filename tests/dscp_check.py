#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The DS field of datagrams as they arrive, for tests/e2e/cluster.sh.

  dscp_check.py send ADDR4 ADDR6 PORT COUNT SIZE SPORT...
      COUNT datagrams of SIZE bytes from each source port in turn, over
      IPv4 and then IPv6, with ECT(0) set (the ECN bits must survive).
  dscp_check.py recv ADDR4 ADDR6 PORT EXPECT SECS
      receive until EXPECT datagrams or SECS seconds; print one line
      "FAMILY SPORT TOS COUNT" per kind of datagram, then "total N".
  dscp_check.py place PLACES DEAL MINOR[/TIER/TIERS]...
      the place (0 first) the deal DEAL gives each job class MINOR among
      PLACES code points with a shuffle, one per line; with /TIER/TIERS,
      in tier TIER (0 first) of TIERS: the rule of sch_ddl.rst ("The
      fabric's code points") written out again, so that a test compares
      the kernel with the documented rule.

Only datagrams whose IPv4 header checksum is right reach a socket.
"""
import os
import select
import socket
import sys
import time

from traffic import rcvbuf

ECT0 = 0x02


def send(a4, a6, port, count, size, sports):
	for fam, addr in ((socket.AF_INET, a4), (socket.AF_INET6, a6)):
		for sport in sports:
			s = socket.socket(fam, socket.SOCK_DGRAM)
			if fam == socket.AF_INET:
				s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, ECT0)
			else:
				s.setsockopt(socket.IPPROTO_IPV6,
					     socket.IPV6_TCLASS, ECT0)
			s.bind(("", sport))
			for _ in range(count):
				s.sendto(b"d" * size, (addr, port))
			s.close()


def recv(a4, a6, port, expect, secs):
	s4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s4.setsockopt(socket.IPPROTO_IP, socket.IP_RECVTOS, 1)
	rcvbuf(s4, 4 << 20)
	s4.bind((a4, port))
	s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
	s6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RECVTCLASS, 1)
	rcvbuf(s6, 4 << 20)
	s6.bind((a6, port))
	ready = os.environ.get("DDL_SINK_READY")
	if ready:
		open(ready, "w").close()
	seen = {}
	n = 0
	end = time.monotonic() + secs
	while n < expect and time.monotonic() < end:
		r, _, _ = select.select([s4, s6], [], [], 0.5)
		for s in r:
			_, anc, _, src = s.recvmsg(65536, 64)
			tos = None
			for lvl, typ, data in anc:
				if (lvl, typ) in ((socket.IPPROTO_IP, socket.IP_TOS),
						  (socket.IPPROTO_IPV6,
						   socket.IPV6_TCLASS)):
					tos = int.from_bytes(data[:4], sys.byteorder) \
						if len(data) >= 4 else data[0]
			fam = 4 if s is s4 else 6
			k = (fam, src[1], tos)
			seen[k] = seen.get(k, 0) + 1
			n += 1
	for (fam, sport, tos), c in sorted(seen.items(), key=str):
		print("%d %d %s %d" % (fam, sport, tos, c))
	print("total %d" % n)


M64 = (1 << 64) - 1


def place(places, deal, minor, tier=0, tiers=1):
	"""The place of job class MINOR (1..) of tier TIER in deal DEAL."""
	x = ((deal >> 1) * 0x9E3779B97F4A7C15 + minor - 1) & M64
	x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
	x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
	h = (x ^ (x >> 31)) >> 32
	if deal & 1:
		h ^= 0xFFFFFFFF
	lo = tier * places // tiers
	hi = (tier + 1) * places // tiers
	return lo + ((h * (hi - lo)) >> 32)


def main():
	cmd = sys.argv[1]
	if cmd == "send":
		send(sys.argv[2], sys.argv[3], int(sys.argv[4]),
		     int(sys.argv[5]), int(sys.argv[6]),
		     [int(p) for p in sys.argv[7:]])
	elif cmd == "recv":
		recv(sys.argv[2], sys.argv[3], int(sys.argv[4]),
		     int(sys.argv[5]), float(sys.argv[6]))
	elif cmd == "place":
		for m in sys.argv[4:]:
			job = [int(v) for v in m.split("/")]
			print(place(int(sys.argv[2]), int(sys.argv[3]), *job))


if __name__ == "__main__":
	main()
