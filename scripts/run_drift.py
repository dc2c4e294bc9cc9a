#!/usr/bin/env python3
"""How much every implementation's own times moved between two bench runs of the same shapes:
old median / new median per (impl, mode, layout, shape) present and passing in both, geometric
mean per class. A ratio above 1 means the implementation is faster in the new run.

Speedups are only compared inside one run; between runs the host side drifts (offline and server
times of every implementation at once), and a change in a ratio can come from either side. This
shows which: if the baselines moved as much as gemmforge, the change is the machine, not the code.

  scripts/run_drift.py OLD/results.json NEW/results.json
(results.json or results.csv; the archives in bench/results hold them, unpack first)
"""
import csv
import json
import math
import sys
from collections import defaultdict


def load(path):
    """{(impl, mode, layout, M, N, K): (median_us, class)} of the passing records."""
    if path.endswith(".csv"):
        rows = list(csv.DictReader(open(path)))
    else:
        rows = json.load(open(path))["records"]
    out = {}
    for r in rows:
        median = r.get("median_us")
        if r.get("verdict") != "pass" or median in (None, ""):
            continue
        key = (r["impl"], r["mode"], r["layout"], int(r["M"]), int(r["N"]), int(r["K"]))
        out[key] = (float(median), r["class"])
    return out


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    old, new = load(argv[1]), load(argv[2])
    ratios = defaultdict(lambda: defaultdict(list))  # (impl, mode) -> class -> [old / new]
    for key, (t_new, cls) in new.items():
        if key in old:
            r = old[key][0] / t_new
            ratios[key[:2]][cls].append(r)
            ratios[key[:2]]["all"].append(r)
    if not ratios:
        sys.exit("no (impl, mode, layout, shape) passes in both runs")
    classes = sorted({c for per in ratios.values() for c in per if c != "all"}) + ["all"]
    print("old median / new median, geomean (n = problems in both runs)")
    print(f"{'impl':<24} {'mode':<8}" + "".join(f"{c:>14}" for c in classes))
    for (impl, mode), per in sorted(ratios.items()):
        cells = "".join(f"{geomean(per[c]):>9.3f} {len(per[c]):>4}" if per.get(c) else f"{'-':>14}" for c in classes)
        print(f"{impl:<24} {mode:<8}{cells}")


if __name__ == "__main__":
    main(sys.argv)
