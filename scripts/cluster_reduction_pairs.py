#!/usr/bin/env python3
"""Split-K summed inside a cluster against split-K summed through global memory, from the
sweep.csv of `gemmforge bench --splits ... --cluster-reduction both`.

For every (shape, layout) the fastest passing split candidate of each kind is taken by its sweep
estimate (every candidate has one, measured the same way; "_dsm" in the name marks the cluster
reduction, "_k<n>" without it the global one). Prints one line per shape (tn layout) and, per K and
overall, the geometric mean of global time / cluster time and how often the cluster one is faster.

  scripts/cluster_reduction_pairs.py tall-k-dsm/sweep.csv
(the archives in bench/results hold sweep.csv; unpack them first)
"""
import csv
import math
import sys
from collections import defaultdict


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main(path):
    best = defaultdict(dict)  # (M, N, K, layout) -> kind -> (estimate, config)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["verdict"] != "pass" or not r["estimate_us"]:
                continue
            name = r["config"]
            kind = "cluster" if "_dsm" in name else ("global" if "_k" in name else None)
            if kind is None:
                continue
            key = (int(r["M"]), int(r["N"]), int(r["K"]), r["layout"])
            t = float(r["estimate_us"])
            if kind not in best[key] or t < best[key][kind][0]:
                best[key][kind] = (t, name)
    by_k, everything = defaultdict(list), []
    print("shape (tn)          global us  cluster us  global/cluster  cluster config")
    for key in sorted(best):
        kinds = best[key]
        if len(kinds) < 2:
            continue
        ratio = kinds["global"][0] / kinds["cluster"][0]
        by_k[key[2]].append(ratio)
        everything.append(ratio)
        if key[3] == "tn":
            shape = f"{key[0]}x{key[1]}x{key[2]}"
            print(f"{shape:<19} {kinds['global'][0]:9.2f}  {kinds['cluster'][0]:10.2f}  {ratio:14.3f}  {kinds['cluster'][1]}")
    print("\nK        problems  geomean global/cluster  cluster faster")
    for k in sorted(by_k):
        rs = by_k[k]
        print(f"{k:<8} {len(rs):8}  {geomean(rs):22.3f}  {sum(r > 1 for r in rs):5} of {len(rs)}")
    print(f"{'all':<8} {len(everything):8}  {geomean(everything):22.3f}  {sum(r > 1 for r in everything):5} of {len(everything)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
