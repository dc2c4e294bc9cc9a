#!/usr/bin/env python3
"""The library (gemmforge-lib) against cuBLASLt-autotune, per class, on the shapes two runs share:
  compare_lib_runs.py MODE OLD_results.csv[,more] NEW_results.csv[,more]
Each shape's speedup takes both at their best layout, as `gemmforge report` does."""
import csv, math, sys
from collections import defaultdict

def load(paths, mode):
    d = defaultdict(dict)
    for p in paths.split(","):
        for r in csv.DictReader(open(p)):
            if r["verdict"] == "pass" and r["mode"] == mode:
                d[(r["M"], r["N"], r["K"], r["class"])][(r["impl"], r["layout"])] = float(r["median_us"])
    return d

def speedups(d, shapes):
    out = defaultdict(list)
    for s in shapes:
        lib = min(v for (i, _), v in d[s].items() if i == "gemmforge-lib")
        base = min(v for (i, _), v in d[s].items() if i == "cublaslt-autotune")
        out[s[3]].append(math.log(base / lib))
        out["all"].append(math.log(base / lib))
    return {k: (math.exp(sum(v) / len(v)), len(v)) for k, v in out.items()}

mode, old, new = sys.argv[1], load(sys.argv[2], sys.argv[1]), load(sys.argv[3], sys.argv[1])
def complete(d, s):  # a passing record of both implementations
    return {i for i, _ in d.get(s, {})} >= {"gemmforge-lib", "cublaslt-autotune"}

common = [s for s in new if complete(new, s) and complete(old, s)]
o, n = speedups(old, common), speedups(new, common)
for k in sorted(o, key=lambda c: (c == "all", c)):
    print(f"{mode:8} {k:8} {o[k][1]:4} shapes  old {o[k][0]:.3f}x  new {n[k][0]:.3f}x")
