#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Two tasks of one srun step, on two nodes: task 0 listens on its node's
address, task 1 connects to it and sends MB megabytes (argv[1], default 16).
Each prints where it runs: node, network namespace, address, cgroup."""
import os
import socket
import subprocess
import sys
import time

PORT = 5001
rank = int(os.environ["SLURM_PROCID"])
mb = int(sys.argv[1]) if len(sys.argv) > 1 else 16
hosts = dict(line.split() for line in
             open(os.environ["SLURM_RUN"] + "/hosts"))
nodes = subprocess.run(["scontrol", "show", "hostnames",
                        os.environ["SLURM_STEP_NODELIST"]],
                       capture_output=True, text=True, check=True).stdout.split()
server = hosts[nodes[0]]
me = os.environ["SLURMD_NODENAME"]
cg = open("/proc/self/cgroup").read().strip()
print(f"task {rank} node {me} hostname {socket.gethostname()} "
      f"netns {os.readlink('/proc/self/ns/net')} addr {hosts[me]} cgroup {cg}",
      flush=True)

if rank == 0:
    ls = socket.create_server((server, PORT))
    c, peer = ls.accept()
    t0, got = time.monotonic(), 0
    while True:
        b = c.recv(1 << 16)
        if not b:
            break
        got += len(b)
    dt = time.monotonic() - t0
    print(f"task 0 received {got} bytes from {peer[0]} in {dt:.2f} s "
          f"({got * 8 / dt / 1e6:.0f} Mbit/s)", flush=True)
else:
    for _ in range(200):
        try:
            s = socket.create_connection((server, PORT))
            break
        except OSError:
            time.sleep(0.05)
    buf = b"x" * (1 << 20)
    for _ in range(mb):
        s.sendall(buf)
    s.close()
    print(f"task {rank} sent {mb} MB to {server}", flush=True)
