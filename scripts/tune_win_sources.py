#!/usr/bin/env python3
"""Where a tune's wins came from: for every problem the table serves with a gemmforge kernel, how
that kernel first entered the problem's measurements (the tuner's note on its first estimate):
a seed from --prior (an earlier table or a class sweep), a seed from a near problem's best kernel
(--neighbour-seeds), a split-K launch of a --split-seeds tile, a seed from the class's earlier winners in this run, the search strategy, or a build for the shape (--specialize) of one of those.
Also the gain of those builds over their generic kernel (estimate ÷ estimate) per class, and,
given the sweeps passed as --prior, how many wins are exactly a sweep's seed.

  scripts/tune_win_sources.py tune.sqlite table.decisions.csv [sweep.csv ...]

Only the measurements of the database's latest run's environment (GPU, architecture, kernel
sources) count, f32 accumulation (the grid's).
"""
import csv
import math
import re
import sqlite3
import sys
from collections import Counter, defaultdict

SHAPE_BUILD = re.compile(r"_at\d+x\d+x\d+$")


def source(note):
    if "prior" in note:
        return "prior"
    if "winner on this class" in note:
        return "class seed"
    if "near problem" in note:
        return "neighbour seed"
    if "split-K tile" in note:
        return "split seed"
    if "built for this shape" in note:
        return "specialized"
    return "search"


def sweep_seeds(paths):
    """Each sweep's candidate per problem as PriorTable::read_sweep picks it."""
    seeds = defaultdict(set)
    for path in paths:
        best = {}
        for r in csv.DictReader(open(path)):
            if r["verdict"] != "pass" or "_at" in r["config"]:
                continue
            if r["acc"] != "f32":
                continue
            key = (r["M"], r["N"], r["K"], r["layout"])
            final = r.get("finalist_median_us") or ""
            rank = (0 if final else 1, float(final or r["estimate_us"]))
            if key not in best or rank < best[key][0]:
                best[key] = (rank, r["config"])
        for key, (_, name) in best.items():
            seeds[key].add(name)
    return seeds


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    db = sqlite3.connect(sys.argv[1])
    decisions = list(csv.DictReader(open(sys.argv[2])))
    seeds = sweep_seeds(sys.argv[3:])
    decisions = [d for d in decisions if d["acc"] == "f32"]
    (env,) = db.execute("select env from runs order by id desc limit 1").fetchone()
    first, fastest = {}, {}
    for M, N, K, layout, config, note, us, verdict in db.execute(
            "select M, N, K, layout, config, note, median_us, verdict from measurements "
            "where impl = 'gemmforge' and mode = 'estimate' and acc = 'f32' and env = ? order by id", (env,)):
        key = (str(M), str(N), str(K), layout, config)
        first.setdefault(key, note or "")
        if verdict == "pass" and us:
            fastest[key] = min(fastest.get(key, math.inf), us)
    by_class = defaultdict(Counter)
    gains = defaultdict(list)
    from_sweep = Counter()
    for d in decisions:
        if d["outcome"] != "win":
            continue
        problem = (d["M"], d["N"], d["K"], d["layout"])
        key = problem + (d["best"],)
        how = source(first.get(key, ""))
        generic = SHAPE_BUILD.sub("", d["best"])
        if how == "specialized":
            how = "built for the shape, of a " + source(first.get(problem + (generic,), "")) + " kernel"
            if key in fastest and problem + (generic,) in fastest:
                gains[d["class"]].append(fastest[problem + (generic,)] / fastest[key])
        by_class[d["class"]][how] += 1
        by_class["all"][how] += 1
        if generic in seeds.get(problem, ()):
            from_sweep[d["class"]] += 1
    print("wins by how their kernel entered the problem's measurements")
    for cls in sorted(by_class, key=lambda c: (c == "all", c)):
        counts = by_class[cls]
        print(f"  {cls:8} {sum(counts.values()):4}  " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    if gains:
        print("builds for the shape that won: generic estimate / built estimate, geomean")
        for cls, g in sorted(gains.items()):
            print(f"  {cls:8} {len(g):4}  {math.exp(sum(map(math.log, g)) / len(g)):.3f}x")
    # Every build for a shape against its generic kernel, winner or not (the wins alone are a
    # biased sample: a build that won was more likely measured on a good draw).
    every = defaultdict(list)
    classes = {(d["M"], d["N"], d["K"], d["layout"]): d["class"] for d in decisions}
    for key, us in fastest.items():
        generic = key[:4] + (SHAPE_BUILD.sub("", key[4]),)
        if generic != key and generic in fastest and key[:4] in classes:
            every[classes[key[:4]]].append(fastest[generic] / us)
    if every:
        print("every build for the shape: generic estimate / built estimate, geomean (median)")
        for cls, g in sorted(every.items()):
            g.sort()
            print(f"  {cls:8} {len(g):4}  {math.exp(sum(map(math.log, g)) / len(g)):.3f}x ({g[len(g) // 2]:.3f}x)")
    if seeds:
        print("wins whose kernel (or its generic build) is a sweep's seed: " +
              ", ".join(f"{c} {n}" for c, n in sorted(from_sweep.items())) + f" (total {sum(from_sweep.values())})")


if __name__ == "__main__":
    main()
