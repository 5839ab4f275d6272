#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `tc -s class show` text of ddl classes into JSON (stdin -> stdout).

iproute2 6.1 prints classes as text even with -j, so the tests read the
text that tc and our plugin print: a list of objects with the keys that
tc -j prints where it supports classes ("class", "bytes", "packets",
"drops", "qlen", "options": {"weight"}, and the ddl xstats, green_time
converted to "green_ns").
"""
import json
import re
import sys

HIST_BUCKETS = 24
UNITS = {"ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}


def ns(text):
    m = re.fullmatch(r"([0-9.e+]+)(ns|us|ms|s)", text)
    return round(float(m.group(1)) * UNITS[m.group(2)]) if m else None


def parse(text):
    out = []
    cur = None
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "class":
            cur = {"kind": words[1], "class": words[2], "options": {}}
            out.append(cur)
            if "weight" in words:
                cur["options"]["weight"] = int(words[words.index("weight") + 1])
            continue
        if cur is None:
            continue
        if words[0] == "Sent":
            cur["bytes"] = int(words[1])
            cur["packets"] = int(words[3])
            m = re.search(r"dropped (\d+)", line)
            cur["drops"] = int(m.group(1)) if m else 0
        elif words[0] == "backlog":
            cur["qlen"] = int(words[2].rstrip("p"))
        elif words[0] == "burst_hist":
            # "LOus:COUNT" for the non-empty buckets, as tc -j's array
            hist = [0] * HIST_BUCKETS
            for w in words[1:]:
                lo, n = w.split(":")
                lo = int(lo[:-2])
                hist[lo.bit_length()] = int(n)
            cur["burst_hist"] = hist
        else:
            for k, v in zip(words[::2], words[1::2]):
                if k == "green_time":
                    cur["green_ns"] = ns(v)
                elif re.fullmatch(r"\d+", v):
                    cur[k] = int(v)
            cur.setdefault("keyed", False)
            if "key" in cur:
                cur["keyed"] = True
    return out


if __name__ == "__main__":
    json.dump(parse(sys.stdin.read()), sys.stdout)
    print()
