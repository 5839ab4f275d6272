#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Small traffic tool for the end-to-end tests (test hosts 198.18.0.0/15).

  traffic.py udp-send ADDR PORT COUNT SIZE        send COUNT datagrams
  traffic.py udp-recv ADDR PORT COUNT SIZE SECS   count datagrams until
        COUNT arrived or none arrived for SECS seconds
  traffic.py tcp-send ADDR PORT BYTES             send BYTES then close
  traffic.py tcp-recv ADDR PORT BYTES 0 SECS      receive until close
  traffic.py raw-send DEV 0 COUNT SIZE            COUNT Ethernet frames
  traffic.py udp-flood ADDR PORT SPORT SECS SIZE [BURST PERIOD_MS [TOS]]
        numbered datagrams from source port SPORT for SECS seconds, as fast
        as the socket buffer allows (blocking: the qdisc sets the pace);
        with BURST, only BURST datagrams at the start of every PERIOD_MS;
        $DDL_SNDBUF sets the socket's send buffer (SO_SNDBUFFORCE);
        $DDL_GSO=SEG sends each datagram as one UDP GSO packet of
        SEG-byte segments (SIZE up to 64 KB)
  traffic.py udp-burst ADDR PORT SPORT COUNT SIZE [TOS [MARK [PRIO]]]
        COUNT datagrams from SPORT with IP_TOS, SO_MARK and SO_PRIORITY
  traffic.py udp-bursts ADDR PORT SPORT:COUNT[:SIZE][,...] SIZE
        the bursts one after another from one process, so that the next
        starts at once however slowly a process starts; each of SIZE
        bytes unless it gives its own; $DDL_SNDBUF as udp-flood's (for
        udp-burst too)
  traffic.py udp-sink ADDR PORTS SECS BUCKET_MS
        receive on the comma-separated PORTS for SECS seconds at most, or
        until nothing arrived for IDLE_SECS after the first; print JSON:
        per port the bytes in each BUCKET_MS bucket, packets, datagrams
        out of order, and the longest gap between two arrivals; creates
        the file $DDL_SINK_READY once the ports are bound
Receivers print "received N"; tcp-recv stops after SECS seconds at the
latest, udp-recv once SECS seconds passed without a datagram (a sender
that a busy guest slows keeps it waiting, a lost datagram does not);
udp-recv and tcp-recv also create $DDL_SINK_READY once they can receive.
"""
import json
import os
import select
import socket
import struct
import sys
import time

IDLE_SECS = 3


def signal_ready():
    """Tell the test that the receiver is bound ($DDL_SINK_READY)."""
    if os.environ.get("DDL_SINK_READY"):
        open(os.environ["DDL_SINK_READY"], "w").close()


def udp_send(addr, port, count, size):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = b"d" * size
    sent = 0
    while sent < count:
        try:
            s.sendto(payload, (addr, port))
            sent += 1
        except BlockingIOError:
            time.sleep(0.001)
        except OSError as e:          # ENOBUFS: qdisc full, try again
            if e.errno != 105:
                raise
            time.sleep(0.001)
    print("sent %d" % sent)


# SO_RCVBUF is capped at net.core.rmem_max (208 KiB: a tenth of a second
# at 20 Mbit/s, less than a busy debug guest may keep a receiver off the
# CPU); as root, SO_RCVBUFFORCE is not.
SO_RCVBUFFORCE = 33


def rcvbuf(s, size):
    """Give socket S a receive buffer of SIZE bytes."""
    try:
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, size)
    except PermissionError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, size)


def udp_recv(addr, port, count, size, secs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    rcvbuf(s, 8 << 20)
    s.bind((addr, port))
    signal_ready()
    s.settimeout(secs)
    got = 0
    while got < count:
        try:
            s.recv(65536)
        except socket.timeout:
            break
        got += 1
    print("received %d" % got)


def tcp_send(addr, port, nbytes):
    s = socket.create_connection((addr, port), timeout=30)
    chunk = b"t" * 65536
    left = nbytes
    while left > 0:
        left -= s.send(chunk[:min(left, len(chunk))])
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
    s.close()
    print("sent %d" % nbytes)


def tcp_recv(addr, port, nbytes, secs):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(1)
    signal_ready()
    ls.settimeout(secs)
    got = 0
    try:
        c, _ = ls.accept()
        c.settimeout(secs)
        while True:
            data = c.recv(1 << 16)
            if not data:
                break
            got += len(data)
        c.close()
    except socket.timeout:
        pass
    print("received %d" % got)


def raw_send(dev, count, size):
    """Frames of exactly SIZE bytes through dev_queue_xmit (AF_PACKET).

    sendto() fails with ENOBUFS when the qdisc drops the frame, so the
    sender knows exactly how many frames the qdisc accepted.
    """
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    # Never block on the socket's own buffer behind a slow shaper.
    s.setsockopt(socket.SOL_SOCKET, 32, 64 << 20)    # SO_SNDBUFFORCE
    s.bind((dev, 0))
    frame = bytes.fromhex("020000000002" "020000000001" "88b5")
    frame += b"\0" * (size - len(frame))
    accepted = dropped = 0
    for _ in range(count):
        try:
            s.send(frame)
            accepted += 1
        except OSError as e:
            if e.errno != 105:      # ENOBUFS: dropped by the qdisc
                raise
            dropped += 1
    print("accepted %d dropped %d" % (accepted, dropped))


def udp_flood(addr, port, sport, secs, size, burst=0, period=0, tos=0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if tos:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    if os.environ.get("DDL_SNDBUF"):
        s.setsockopt(socket.SOL_SOCKET, 32,        # SO_SNDBUFFORCE
                     int(os.environ["DDL_SNDBUF"]))
    if os.environ.get("DDL_GSO"):
        s.setsockopt(socket.IPPROTO_UDP, 103,      # UDP_SEGMENT
                     int(os.environ["DDL_GSO"]))
    s.bind(("0.0.0.0", sport))
    pad = b"f" * (size - 8)
    start = time.monotonic()
    end = start + secs
    seq = 0
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if burst and seq >= burst * (int((now - start) * 1000 / period) + 1):
            time.sleep(0.002)
            continue
        try:
            s.sendto(struct.pack("!Q", seq) + pad, (addr, port))
            seq += 1
        except OSError as e:          # ENOBUFS: dropped by the qdisc
            if e.errno != 105:
                raise
            seq += 1
    print("sent %d" % seq)


def udp_burst(addr, port, sport, count, size, tos=0, mark=0, prio=0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if tos:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tos)
    if mark:
        s.setsockopt(socket.SOL_SOCKET, 36, mark)        # SO_MARK
    if prio:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, prio)
    if os.environ.get("DDL_SNDBUF"):
        s.setsockopt(socket.SOL_SOCKET, 32,        # SO_SNDBUFFORCE
                     int(os.environ["DDL_SNDBUF"]))
    s.bind(("0.0.0.0", sport))
    for seq in range(count):
        s.sendto(struct.pack("!Q", seq) + b"b" * (size - 8), (addr, port))
    print("sent %d" % count)


SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def arrival(anc, start, real0, now):
    """A datagram's receive time on the monotonic clock, else NOW."""
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            sec, nsec = struct.unpack("qq", data[:16])
            return start + (sec + nsec / 1e9 - real0)
    return now


def udp_sink(addr, ports, secs, bucket_ms):
    socks = {}
    for p in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        rcvbuf(s, 8 << 20)
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        s.bind((addr, p))
        s.setblocking(False)
        socks[s] = p
    signal_ready()
    stats = {p: {"buckets": {}, "packets": 0, "bytes": 0, "reordered": 0,
                 "next": 0, "last": None, "max_gap_ms": 0.0,
                 "first": None}
             for p in ports}
    start = time.monotonic()
    # Arrival times are the kernel's receive timestamps (CLOCK_REALTIME),
    # taken to the monotonic clock: on a loaded host the sink may read a
    # second's datagrams at once, but each keeps the time it arrived.
    real0 = time.time()
    end = start + secs
    last = None
    while True:
        now = time.monotonic()
        left = end - now
        if last is not None:
            left = min(left, last + IDLE_SECS - now)
        if left <= 0:
            break
        ready, _, _ = select.select(list(socks), [], [], left)
        now = time.monotonic()
        if ready:
            last = now
        for s in ready:
            st = stats[socks[s]]
            while True:
                try:
                    data, anc, _, _ = s.recvmsg(65536, 64)
                except BlockingIOError:
                    break
                t = arrival(anc, start, real0, now)
                b = int((t - start) * 1000 // bucket_ms)
                st["buckets"][b] = st["buckets"].get(b, 0) + len(data)
                st["packets"] += 1
                st["bytes"] += len(data)
                seq = struct.unpack("!Q", data[:8])[0]
                if seq < st["next"]:
                    st["reordered"] += 1
                st["next"] = max(st["next"], seq + 1)
                if st["last"] is not None:
                    gap = (t - st["last"]) * 1000
                    st["max_gap_ms"] = max(st["max_gap_ms"], gap)
                else:
                    st["first"] = (t - start) * 1000
                st["last"] = t
    for st in stats.values():
        if st["last"] is not None:
            st["last"] = (st["last"] - start) * 1000
    json.dump({"bucket_ms": bucket_ms, "ports": stats}, sys.stdout)
    print()


def main():
    cmd = sys.argv[1]
    if cmd == "udp-flood":
        a = [int(x) for x in sys.argv[3:]]
        udp_flood(sys.argv[2], *a)
        return
    if cmd == "udp-burst":
        a = [int(x, 0) for x in sys.argv[3:]]
        udp_burst(sys.argv[2], *a)
        return
    if cmd == "udp-bursts":
        for b in sys.argv[4].split(","):
            f = [int(x, 0) for x in b.split(":")]
            udp_burst(sys.argv[2], int(sys.argv[3], 0), f[0], f[1],
                      f[2] if len(f) > 2 else int(sys.argv[5], 0))
        return
    if cmd == "udp-sink":
        udp_sink(sys.argv[2], [int(p) for p in sys.argv[3].split(",")],
                 float(sys.argv[4]), int(sys.argv[5]))
        return
    addr, port = sys.argv[2], int(sys.argv[3])
    if cmd == "raw-send":
        raw_send(addr, int(sys.argv[4]), int(sys.argv[5]))
        return
    args = [int(a) for a in sys.argv[4:]]
    if cmd == "udp-send":
        udp_send(addr, port, args[0], args[1])
    elif cmd == "udp-recv":
        udp_recv(addr, port, args[0], args[1], args[2])
    elif cmd == "tcp-send":
        tcp_send(addr, port, args[0])
    elif cmd == "tcp-recv":
        tcp_recv(addr, port, args[0], args[2])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
