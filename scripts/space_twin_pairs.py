#!/usr/bin/env python3
"""A twin tune's finals (`gemmforge tune --space-twins`): each Hopper finalist against its twin
built with the space's knobs (the fast walk `_fw`, and lean cluster sync `_lean` where multicast),
timed in the same final on the same problem and launch.
  space_twin_pairs.py DB_DIR [RUN]
DB_DIR: a tune database exported as CSV (`gemmforge db export`, db-measurements.csv.gz); RUN: the
tune's run id (default the database's last run). Pairs are grouped by the plain build's time
(under 10, 10-50, 50-200, 200 µs and over), its consumer mode and whether the twin is lean:
count, the median of twin minus plain (µs), the geomean of twin over plain (below 1: the twin is
faster) and how many twins were faster. Exit status 0."""
import csv, gzip, math, os, statistics, sys
from collections import defaultdict


def plain_name(config):
    return config.replace("_fw", "").replace("_lean", "")


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = os.path.join(sys.argv[1], "db-measurements.csv.gz")
    rows = list(csv.DictReader(gzip.open(path, "rt")))
    run = sys.argv[2] if len(sys.argv) == 3 else max((r["run"] for r in rows if r["run"]), key=int)
    finals = defaultdict(dict)  # problem -> config -> median µs
    for r in rows:
        if r["run"] == run and r["mode"] == "gpu" and r["verdict"] == "pass" and r["config"].startswith("sm90_"):
            finals[(r["M"], r["N"], r["K"], r["layout"])][r["config"]] = float(r["median_us"])
    groups = defaultdict(list)
    for problem, times in finals.items():
        for config, plain in times.items():
            if "_fw" in config or "_lean" in config:
                continue
            twins = [c for c in times if c != config and "_fw" in c and plain_name(c) == config]
            for twin in twins:
                length = "<10" if plain < 10 else "10-50" if plain < 50 else "50-200" if plain < 200 else ">=200"
                mode = "pingpong" if "_pingpong_" in config else "ksplit" if "_ksplit_" in config else "coop"
                groups[(length, mode, "lean" if "_lean" in twin else "")].append((times[twin] - plain, times[twin] / plain))
    print("run %s: %d problems with finals, %d twin pairs" % (run, len(finals), sum(len(v) for v in groups.values())))
    print("%-7s %-9s %-5s %6s %12s %12s %12s" % ("plain", "mode", "twin", "pairs", "median d(us)", "twin/plain", "twin faster"))
    every = []
    for key in sorted(groups, key=lambda k: (["<10", "10-50", "50-200", ">=200"].index(k[0]), k[1], k[2])):
        v = groups[key]
        every += v
        print("%-7s %-9s %-5s %6d %12.3f %12.4f %12d" % (*key, len(v), statistics.median(d for d, _ in v),
                                                        math.exp(sum(math.log(q) for _, q in v) / len(v)),
                                                        sum(1 for _, q in v if q < 1)))
    if every:
        print("%-23s %6d %12.3f %12.4f %12d" % ("all", len(every), statistics.median(d for d, _ in every),
                                                math.exp(sum(math.log(q) for _, q in every) / len(every)),
                                                sum(1 for _, q in every if q < 1)))


if __name__ == "__main__":
    main()
