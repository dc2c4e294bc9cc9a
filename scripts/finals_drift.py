#!/usr/bin/env python3
"""How the finals' times of the same (problem, config) moved between two tunes' last runs: new
median over old, grouped by what was timed (cuBLASLt, a plain Hopper build, a fast-walk build
`_fw`) and by the old time (under 10, 10-200, 200 µs and over). Where the plain builds moved as
much as cuBLASLt, the change is the card; where only one kind of build moved, it is its code.
  finals_drift.py OLD_DB_DIR NEW_DB_DIR
Each DB_DIR a tune database exported as CSV (`gemmforge db export`: db-measurements.csv.gz)."""
import csv, gzip, math, os, statistics, sys
from collections import defaultdict


def last_run_finals(db_dir):
    rows = list(csv.DictReader(gzip.open(os.path.join(db_dir, "db-measurements.csv.gz"), "rt")))
    run = max((r["run"] for r in rows if r["run"]), key=int)
    return {(r["M"], r["N"], r["K"], r["layout"], r["config"]): float(r["median_us"])
            for r in rows if r["run"] == run and r["mode"] == "gpu" and r["verdict"] == "pass"}


def kind(config):
    return "plain" if config.startswith("sm90_") and "_fw" not in config else "fast walk" if "_fw" in config \
        else "other" if config.startswith("sm") else "cublaslt"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = last_run_finals(sys.argv[1]), last_run_finals(sys.argv[2])
    groups = defaultdict(list)
    for key, t in old.items():
        if key in new:
            length = "<10" if t < 10 else "10-200" if t < 200 else ">=200"
            groups[(kind(key[4]), length)].append(new[key] / t)
    print("%-10s %-7s %6s %10s %10s" % ("timed", "old us", "pairs", "geomean", "median"))
    for key in sorted(groups):
        v = groups[key]
        print("%-10s %-7s %6d %10.4f %10.4f" % (*key, len(v), math.exp(sum(map(math.log, v)) / len(v)),
                                                statistics.median(v)))


if __name__ == "__main__":
    main()
