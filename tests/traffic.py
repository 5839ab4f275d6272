#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Small traffic tool for the end-to-end tests (test hosts 198.18.0.0/15).

  traffic.py udp-send ADDR PORT COUNT SIZE        send COUNT datagrams
  traffic.py udp-recv ADDR PORT COUNT SIZE SECS   count datagrams
  traffic.py tcp-send ADDR PORT BYTES             send BYTES then close
  traffic.py tcp-recv ADDR PORT BYTES 0 SECS      receive until close
  traffic.py raw-send DEV 0 COUNT SIZE            COUNT Ethernet frames
Receivers print "received N" and stop after SECS seconds at the latest.
"""
import socket
import sys
import time


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


def udp_recv(addr, port, count, size, secs):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((addr, port))
    deadline = time.monotonic() + secs
    got = 0
    while got < count:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        s.settimeout(left)
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


def main():
    cmd, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
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


main()
