#!/usr/bin/env python3
"""Shape specialization against the generic build, from the sweep.csv of `gemmforge bench --specialize`.

For every (shape, layout), each finalist built for the shape ("..._atMxNxK") is paired with its
generic build, both timed in the same interleaved rounds (finalist_median_us). Prints, per family
and overall, the geometric mean of generic time / specialized time, its range, the median time
saved, and on how many problems a specialized build was the fastest finalist.

  scripts/specialization_pairs.py bench/results/2026-11-29-h200-issue4-classes/tiny/sweep.csv
(the archives in bench/results hold sweep.csv; unpack them first)
"""
import csv
import math
import statistics
import sys
from collections import defaultdict


def main(paths):
    for path in paths:
        finals = defaultdict(dict)
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["finalist_median_us"]:
                    finals[(r["M"], r["N"], r["K"], r["layout"])][r["config"]] = float(r["finalist_median_us"])
        ratios, saved, problems, won = defaultdict(list), [], 0, 0
        for times in finals.values():
            generic = {c: t for c, t in times.items() if "_at" not in c}
            built = {c: t for c, t in times.items() if "_at" in c}
            for name, t in built.items():
                base = name[: name.index("_at")]
                if base in generic:
                    ratios[name[:4]].append(generic[base] / t)
                    ratios["all"].append(generic[base] / t)
                    saved.append(generic[base] - t)
            if generic and built:
                problems += 1
                won += min(built.values()) < min(generic.values())
        print(path)
        for family, r in sorted(ratios.items()):
            gm = math.exp(sum(map(math.log, r)) / len(r))
            print(f"  {family:5s} {len(r):4d} pairs: generic/specialized geomean {gm:.3f} (range {min(r):.3f}-{max(r):.3f})")
        if saved:
            print(f"  median time saved per call: {statistics.median(saved):.3f} us")
        print(f"  a specialized build was the fastest finalist on {won} of {problems} problems")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
