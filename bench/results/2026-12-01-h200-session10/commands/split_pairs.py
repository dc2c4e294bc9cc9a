#!/usr/bin/env python3
"""The same config on the same problem, launched with the old split-K count (the fewest parts that
fill the SMs) and with the new one (the most that fit one wave): estimate of the old launch ÷
estimate of the new, from one results database (the new launches were measured in call 3 as the
problem's own or a near problem's best, relaunched; the old ones in session 9 or call 1).
  split_pairs.py tune.sqlite"""
import math, re, sqlite3, sys
from collections import defaultdict

db = sqlite3.connect(sys.argv[1])
last = db.execute("select max(id) from runs").fetchone()[0]
est = defaultdict(dict)
for M, N, K, layout, config, us, note, run in db.execute(
        "select M, N, K, layout, config, median_us, note, run from measurements "
        "where impl = 'gemmforge' and mode = 'estimate' and verdict = 'pass' and acc = 'f32'"):
    est[(M, N, K, layout)][config] = (us, run, note or "")
unsplit = lambda c: re.sub(r"_k\d+", "", c)
pairs = []
for problem, ms in est.items():
    for c, (us, run, note) in ms.items():
        if run != last or "near problem" not in note or "_k" not in c:
            continue
        for c2, (us2, run2, _) in ms.items():
            if c2 != c and run2 < last and "_k" in c2 and unsplit(c2) == unsplit(c):
                pairs.append((us2 / us, problem, c2, us2, c, us))
r = sorted(p[0] for p in pairs)
cluster = [p[0] for p in pairs if "_dsm" in p[4]]
plain = [p[0] for p in pairs if "_dsm" not in p[4]]
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"{len(pairs)} pairs: old/new geomean {gm(r):.3f}x, median {r[len(r) // 2]:.3f}x; "
      f"new faster by >3%: {sum(x > 1.03 for x in r)}, slower by >3%: {sum(x < 0.97 for x in r)}")
print(f"  summed through global memory: {len(plain)} pairs, geomean {gm(plain):.3f}x")
print(f"  summed inside a cluster (one unit per CTA): {len(cluster)} pairs, geomean {gm(cluster):.3f}x")
print("largest gains and losses (old/new, problem, old launch us, new launch us):")
for p in sorted(pairs)[-6:][::-1] + sorted(pairs)[:6]:
    print(f"  {p[0]:.3f}x {p[1]} {p[2]} {p[3]:.2f} -> {p[4]} {p[5]:.2f}")
