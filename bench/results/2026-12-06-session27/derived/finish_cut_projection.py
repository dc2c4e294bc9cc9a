#!/usr/bin/env python3
"""What a shorter split-K finish would be worth, projected (not measured) from call 1's tune database:
  gemmforge db import --dir <call1.tar.gz: call1/tune/db> --db /tmp/new.sqlite
  finish_cut_projection.py /tmp/new.sqlite > finish-cut-projection.txt
For every problem whose fastest parts-apart split launch was measured under the lean finish
(kernel source e7bf249d, gpu mode), that launch's time less a cut of 0-2 us against the problem's
cuBLASLt-autotune time in the tuner's final; served = the faster of the two (as the table does),
geomean over those problems, per class; wins = ratio above 1.01. A launch's other phases are taken
as they are, which a faster finish may not leave them."""
import collections, math, sqlite3, sys

db = sqlite3.connect(sys.argv[1])
env = [i for i, k in db.execute("select id, key from environments") if "e7bf249d" in k][0]
best_pa = {}
for M, N, K, l, cfg, us in db.execute(
        "select M, N, K, layout, config, median_us from measurements where env=? and impl='gemmforge' and mode='gpu' "
        "and verdict='pass'", (env,)):
    if "_pa_k" in cfg:
        best_pa[(M, N, K, l)] = min(us, best_pa.get((M, N, K, l), us))
rows = []
for M, N, K, l, base in db.execute("select M, N, K, layout, baseline_us from winners where env=?", (env,)):
    if base and (M, N, K, l) in best_pa:
        tall = M <= 512 and N <= 512 and K >= 4096
        rows.append(("tall-K" if tall else "other", best_pa[(M, N, K, l)], base))
print("cut (us)  class    problems  wins  served geomean vs cuBLASLt-autotune (problems with a parts-apart launch)")
for cut in (0.0, 0.5, 1.0, 1.5, 2.0):
    for cls in ("tall-K", "other"):
        rs = [r for r in rows if r[0] == cls]
        ratios = [base / (us - cut) for _, us, base in rs]
        g = math.exp(sum(math.log(max(1.0, x)) for x in ratios) / len(rs))
        print("%8.1f  %-7s  %8d  %4d  %.3f" % (cut, cls, len(rs), sum(x > 1.01 for x in ratios), g))
