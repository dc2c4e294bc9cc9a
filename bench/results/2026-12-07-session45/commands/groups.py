#!/usr/bin/env python3
"""Call 2's raster groups, one group per bench run (builds named ..._gN), read against the
automatic group:  groups.py CALL_DIR  (CALL_DIR holds gauto-1, g1-1, ... each with sweep.csv).
Per (shape, config): the mean over seeds of each run's finalist median; then auto's time over
each group's (above 1: the group is faster), as a geomean over configs and shapes, and for the
fastest config of each shape."""
import csv, math, re, sys
from collections import defaultdict

GROUPS = ["auto", "1", "2", "4", "16"]


def main():
    d = sys.argv[1]
    t = defaultdict(lambda: defaultdict(list))
    for g in GROUPS:
        for seed in "12":
            for r in csv.DictReader(open(f"{d}/g{g}-{seed}/sweep.csv")):
                if r["verdict"] != "pass":
                    continue
                cfg = re.sub(r"_g\d+$", "", r["config"])
                t[(int(r["M"]), int(r["N"]), int(r["K"]), cfg)][g].append(float(r["finalist_median_us"] or r["estimate_us"]))
    ratios, best = defaultdict(list), defaultdict(dict)
    for key, by in sorted(t.items()):
        if len(by) < len(GROUPS):
            continue
        mean = {g: sum(v) / len(v) for g, v in by.items()}
        for g in GROUPS[1:]:
            ratios[g].append(mean["auto"] / mean[g])
        for g in GROUPS:
            best[key[:3]][g] = min(best[key[:3]].get(g, math.inf), mean[g])
    print("auto's time / group's, per (shape, config): geomean, worst, best, pairs")
    for g in GROUPS[1:]:
        v = ratios[g]
        print(f"  g{g:<4} {math.exp(sum(map(math.log, v)) / len(v)):.3f}  {min(v):.3f}  {max(v):.3f}  {len(v)}")
    print("\nthe fastest config per shape, auto's time / group's:")
    for shape, b in sorted(best.items()):
        print("  %-18s " % "x".join(map(str, shape)) + "  ".join(f"g{g} {b['auto'] / b[g]:.3f}" for g in GROUPS[1:]))


if __name__ == "__main__":
    main()
