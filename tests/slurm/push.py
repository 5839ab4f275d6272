#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pushes within one srun step: task 0 listens on its node's address and
every other task connects to it and sends MB megabytes (argv[1], default
16), as a peer's or a sharded parameter server's pushes.  Task 0 prints
"received BYTES bytes from N senders"."""
import os
import socket
import subprocess
import sys
import time

PORT = 5001
rank = int(os.environ["SLURM_PROCID"])
ntasks = int(os.environ["SLURM_NTASKS"])
mb = int(sys.argv[1]) if len(sys.argv) > 1 else 16
hosts = dict(line.split() for line in
             open(os.environ["SLURM_RUN"] + "/hosts"))
nodes = subprocess.run(["scontrol", "show", "hostnames",
                        os.environ["SLURM_STEP_NODELIST"]],
                       capture_output=True, text=True,
                       check=True).stdout.split()
server = hosts[nodes[0]]

if rank == 0:
    ls = socket.create_server((server, PORT), backlog=ntasks)
    got = 0
    for _ in range(ntasks - 1):
        c, _ = ls.accept()
        while b := c.recv(1 << 16):
            got += len(b)
    print(f"received {got} bytes from {ntasks - 1} senders", flush=True)
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
