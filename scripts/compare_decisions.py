#!/usr/bin/env python3
"""Two tunes' decisions on the problems both decided, per class: the tuner's best found against
cuBLASLt-autotune (final, interleaved), what the table serves (1 on a tie or loss), and wins.
  compare_decisions.py OLD.decisions.csv NEW.decisions.csv
OLD may also be a database's winners table as exported (db-winners.csv.gz): every problem it
decided, where a run's decisions file holds only the problems that run was asked for.
The last line is issue 3's mid figure from the decisions: the mid shapes with every dimension
>= 1024, each as our best found at its faster layout over cuBLASLt's at its faster layout."""
import csv, gzip, math, sys
from collections import defaultdict

def load(path):
    f = gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    return {(r["M"], r["N"], r["K"], r["layout"]): r for r in csv.DictReader(f) if r["acc"] == "f32"}

gm = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
best = lambda r: float(r["baseline_us"]) / float(r["best_us"]) if r["best_us"] and r["baseline_us"] else None
served = lambda r: float(r["speedup"]) if r["outcome"] == "win" else 1.0
old, new = load(sys.argv[1]), load(sys.argv[2])
g = defaultdict(lambda: [[], [], [], [], 0, 0, 0])
for k, n in new.items():
    if k not in old:
        continue
    o = old[k]
    for c in (n["class"], "all"):  # the winners table has no class column: the new file's
        e = g[c]
        if best(o) and best(n):
            e[0].append(best(o))
            e[1].append(best(n))
        e[2].append(served(o))
        e[3].append(served(n))
        e[4] += o["outcome"] == "win"
        e[5] += n["outcome"] == "win"
        e[6] += n["budget"] != o["budget"]
print("class    problems retuned  best found        served            wins")
for c in sorted(g, key=lambda c: (c == "all", c)):
    e = g[c]
    print(f"{c:8} {len(e[2]):8} {e[6]:7}  {gm(e[0]):.3f}x -> {gm(e[1]):.3f}x  {gm(e[2]):.3f}x -> {gm(e[3]):.3f}x  {e[4]} -> {e[5]}")

def mid_figure(d, layouts):  # shape -> (ours, theirs), each the faster of `layouts`' times
    t = defaultdict(lambda: [math.inf, math.inf])
    for (m, n, k, l), r in d.items():
        if (l in layouts and r.get("class", "mid") == "mid" and min(int(m), int(n), int(k)) >= 1024
                and r["best_us"] and r["baseline_us"]):
            t[(m, n, k)][0] = min(t[(m, n, k)][0], float(r["best_us"]))
            t[(m, n, k)][1] = min(t[(m, n, k)][1], float(r["baseline_us"]))
    return t
# Each side at the layouts both files decided (a winners table holds both, a run's file may not),
# and the mid class as the new file classifies it (the winners table has no class column).
both = {k[3] for k in new} & {k[3] for k in old}
mo, mn = mid_figure(old, both), mid_figure(new, both)
mids = [s for s in mn if s in mo]
print(f"mid, every dim >= 1024 ({len(mids)} shapes, each at its best layout of {', '.join(sorted(both))}): "
      f"best found {gm([mo[s][1] / mo[s][0] for s in mids]):.3f}x -> {gm([mn[s][1] / mn[s][0] for s in mids]):.3f}x")
