#!/usr/bin/env python3
"""Twin kernel configs timed in the same bench runs (sweep.csv of each run): a config and its twin,
whose name carries one more token (e.g. _push), on the same shape, layout and launch.
  ab_twins.py TOKEN RUN_DIR[,RUN_DIR...]
For every pair measured in every run given: the mean of each one's first estimates over the runs
and the plain config's time over the twin's (above 1: the twin is faster); then, per tile (BMxBN),
the geomean and the worst of those ratios, and over all pairs. Exit status 0."""
import csv, math, os, re, sys
from collections import defaultdict


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    token, dirs = sys.argv[1], sys.argv[2].split(",")
    times = defaultdict(list)  # (M, N, K, layout, config) -> estimates
    for d in dirs:
        for r in csv.DictReader(open(os.path.join(d, "sweep.csv"))):
            if r["verdict"] == "pass" and r["estimate_us"]:
                times[(r["M"], r["N"], r["K"], r["layout"], r["config"])].append(float(r["estimate_us"]))
    per_tile, ratios = defaultdict(list), []
    print("%-20s %-4s %-58s %9s %9s %7s" % ("shape", "lay", "config (twin: +%s)" % token, "plain", "twin", "ratio"))
    for (M, N, K, lay, cfg), plain in sorted(times.items()):
        if token in cfg:
            continue
        # The token goes after the config name, before the launch suffix (_k16_pdl_dsm, ...).
        m = re.match(r"(sm90_.*?_\d+x\d+(?:_mc)?(?:_tmastore)?(?:_swap)?(?:_pa)?)(_.*)?$", cfg)
        if not m:
            continue
        twin = times.get((M, N, K, lay, m.group(1) + token + (m.group(2) or "")))
        if not twin or len(twin) != len(plain):
            continue
        p, t = sum(plain) / len(plain), sum(twin) / len(twin)
        ratio = p / t
        ratios.append(ratio)
        per_tile[re.search(r"_(\d+x\d+)x\d+_", cfg).group(1)].append(ratio)
        print("%-20s %-4s %-58s %9.2f %9.2f %7.3f" % ("x".join((M, N, K)), lay, cfg[:58], p, t, ratio))
    geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print("\nper tile, plain time / twin time (geomean, worst, pairs):")
    for tile, v in sorted(per_tile.items()):
        print("  %-8s %.3f (worst %.3f, %d)" % (tile, geo(v), min(v), len(v)))
    if ratios:
        print("  all      %.3f (worst %.3f, best %.3f, %d)" % (geo(ratios), min(ratios), max(ratios), len(ratios)))


if __name__ == "__main__":
    main()
