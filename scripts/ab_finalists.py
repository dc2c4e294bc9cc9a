#!/usr/bin/env python3
"""Two kernel variants timed in alternating `gemmforge bench --finalists 99` runs of the same
configs (the device-call scripts' A/B: v0 = HEAD's kernels through GEMMFORGE_DATA_DIR, v1 = the
work tree), compared on the finalists' re-timed medians:

  ab_finalists.py RESULTS_DIR [REPS=2]

reads RESULTS_DIR/ab-v0-REP/sweep.csv and ab-v1-REP/sweep.csv for REP = 1..REPS and prints, per
(shape, config) measured in both, the mean of each variant's medians and v0/v1 (above 1: v1 is
faster), then the geomean of v0/v1 per tile. (scripts/ab_sweeps.py does the same from the first
estimates, for any number of named variants.)"""
import collections
import csv
import math
import os
import sys


def main(root, reps):
    times = collections.defaultdict(lambda: collections.defaultdict(list))
    for v in ("v0", "v1"):
        for rep in range(1, reps + 1):
            for r in csv.DictReader(open(os.path.join(root, f"ab-{v}-{rep}", "sweep.csv"))):
                if r["finalist_median_us"]:
                    times[(r["M"] + "x" + r["N"] + "x" + r["K"], r["config"])][v].append(float(r["finalist_median_us"]))
    ratios = collections.defaultdict(list)
    for (shape, cfg), d in sorted(times.items()):
        if d["v0"] and d["v1"]:
            a, b = sum(d["v0"]) / len(d["v0"]), sum(d["v1"]) / len(d["v1"])
            ratios[cfg.split("_f32_")[-1]].append(a / b)
            print(f"{shape:18} {cfg:55} v0 {a:8.1f} v1 {b:8.1f} v0/v1 {a / b:.3f}")
    for cfg, rs in ratios.items():
        print(f"{cfg:45} geomean v0/v1 {math.exp(sum(map(math.log, rs)) / len(rs)):.3f} over {len(rs)}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 2)
