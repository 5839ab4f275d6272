# SPDX-License-Identifier: GPL-2.0
"""Result lines for the Python checkers: one "ok - ..." or "not ok - ..."
line per check; `failed` counts the failures."""

import math

failed = 0


def check(cond, desc, why=""):
    global failed
    if cond:
        print("ok - " + desc)
    else:
        failed += 1
        print("not ok - " + desc + (": " + why if why else ""))


def num(x):
    """x is a finite number (not a bool): a figure of a results file."""
    return (isinstance(x, (int, float)) and not isinstance(x, bool)
            and math.isfinite(x))
