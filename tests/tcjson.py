#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one field of one qdisc or class from `tc -j ... show` on stdin.

usage: tcjson.py HANDLE FIELD     e.g. tcjson.py 1: options.limit
HANDLE matches "handle" (qdiscs) or "class"/"handle" (classes); "root"
selects the root qdisc.  A missing object or field prints "missing".
"""
import json
import sys


def main():
    want, field = sys.argv[1], sys.argv[2]
    for obj in json.load(sys.stdin):
        if want == "root" and obj.get("root"):
            pass
        elif want not in (obj.get("handle"), obj.get("class")):
            continue
        val = obj
        for key in field.split("."):
            if not isinstance(val, dict) or key not in val:
                print("missing")
                return
            val = val[key]
        print(val)
        return
    print("missing")


main()
