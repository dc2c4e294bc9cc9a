#!/usr/bin/env python3
"""The host-path A/B of the runtime library (bench/NOTES.md, fourth session): for the same shapes
in each run (cuBLASLt-autotune under 10 us in offline mode in the first run), the library's time
against cuBLASLt-autotune's, split by what served the shape. Usage: python3 ab_table.py"""
import collections
import csv
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
runs = ["ab-old-1", "ab-new-1", "ab-old-2", "ab-new-2"]
data = {}
for name in runs:
    by = collections.defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(here, name, "results.csv"))):
        by[(r["M"], r["N"], r["K"], r["layout"])][r["impl"]] = r
    data[name] = by


def us(rec):
    return float(rec["median_us"])


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


first = data[runs[0]]
small = [k for k, v in first.items() if us(v["cublaslt-autotune"]) < 10]
print("run        served-by  shapes  autotune/lib (geomean)  lib - autotune (median us)")
for name in runs:
    d = data[name]
    for served in ("cublaslt", "gemmforge"):
        keys = [k for k in small if d[k]["gemmforge-lib"]["note"].startswith(served)]
        ratio = geomean([us(d[k]["cublaslt-autotune"]) / us(d[k]["gemmforge-lib"]) for k in keys])
        diff = sorted(us(d[k]["gemmforge-lib"]) - us(d[k]["cublaslt-autotune"]) for k in keys)
        print(f"{name:10} {served:10} {len(keys):6}  {ratio:22.4f}  {diff[len(diff) // 2]:+.3f}")
