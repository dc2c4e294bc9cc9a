#!/usr/bin/env python3
"""Shapes whose table entries a build of their finalists with the space's optional knobs (the fast
walk, lean cluster sync) could change, most promising first, for `gemmforge tune --space-twins`.

Usage: pick_space_twin_shapes.py TABLE.json OUT.txt
  1. cuBLASLt served, our fastest kernel within 3% of it or a tie (fastest_speedup >= 0.97):
     +1-2% on a finalist can make it a win.
  2. A Hopper kernel of ours served: +1-2% on the served call.
Within each group the cheapest shapes (fewest flops) first, so a tune stopped by its time limit
has reopened as many problems as it could. Each shape once (its two layouts are tuned together)."""
import json
import sys

table = json.load(open(sys.argv[1]))
order = {}
for e in table["entries"]:
    shape = (e["M"], e["N"], e["K"])
    if e["config"] == "cublaslt":
        fast = e.get("fastest_speedup", 0.0)
        if fast < 0.97 or not e.get("fastest_kernel", "").startswith("sm90_"):
            continue
        key = (0,)
    elif e["config"].get("family") == "sm90":
        key = (1,)
    else:
        continue
    order[shape] = min(order.get(shape, key), key)
shapes = sorted(order, key=lambda s: (order[s], s[0] * s[1] * s[2]))
with open(sys.argv[2], "w") as out:
    for m, n, k in shapes:
        out.write(f"{m} {n} {k}\n")
first = sum(1 for s in shapes if order[s][0] == 0)
print(f"{len(shapes)} shapes: {first} where cuBLASLt is served and ours is within 3%, {len(shapes) - first} served by ours")
