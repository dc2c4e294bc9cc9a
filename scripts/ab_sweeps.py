#!/usr/bin/env python3
"""Kernel variants timed in alternating bench runs of the same configs (sweep.csv of each run):
  ab_sweeps.py NAME=RUN_DIR[,RUN_DIR...] NAME=RUN_DIR[,...] [...]
The first NAME is the reference. For every (shape, layout, config) measured in all variants: the
mean of each variant's first estimates over its runs and the reference's time over the variant's
(above 1: the variant is faster); then, per tile (BMxBN), the geomean and the worst of those ratios.
bench/NOTES.md (session 11) reads calls 1 and 6 so."""
import csv, math, os, re, sys
from collections import defaultdict


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[1:]):
        sys.exit(__doc__)
    variants = [a.split("=", 1) for a in sys.argv[1:]]
    times = defaultdict(lambda: defaultdict(list))
    for name, dirs in variants:
        for d in dirs.split(","):
            for r in csv.DictReader(open(os.path.join(d, "sweep.csv"))):
                if r["verdict"] == "pass":
                    times[(r["M"], r["N"], r["K"], r["layout"], r["config"])][name].append(float(r["estimate_us"]))
    names = [n for n, _ in variants]
    ref = names[0]
    per_tile = defaultdict(lambda: defaultdict(list))
    print("%-22s %-4s %-52s " % ("shape", "lay", "config") + " ".join("%16s" % n for n in names))
    for key, by in sorted(times.items()):
        if not all(n in by for n in names):
            continue
        mean = {n: sum(by[n]) / len(by[n]) for n in names}
        tile = re.search(r"_(\d+x\d+)x\d+_", key[4]).group(1)
        cells = []
        for n in names:
            ratio = mean[ref] / mean[n]
            if n != ref:
                per_tile[tile][n].append(ratio)
            cells.append("%8.2f (%.3f)" % (mean[n], ratio))
        print("%-22s %-4s %-52s " % ("x".join(key[:3]), key[3], key[4][:52]) + " ".join(cells))
    print("\nper tile, %s's time / the variant's (geomean, worst, pairs):" % ref)
    for tile, by in sorted(per_tile.items()):
        print("  %-8s " % tile + "  ".join("%s %.3f (worst %.3f, %d)" % (
            n, math.exp(sum(map(math.log, v)) / len(v)), min(v), len(v)) for n, v in by.items()))


if __name__ == "__main__":
    main()
