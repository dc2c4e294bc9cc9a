#!/usr/bin/env python3
"""What pushed in-cluster sums could do to the H200's table, projected (not measured): the H200's
tune database (session 27's, carried: every in-cluster launch there is a pulled sum) with each
in-cluster launch's time divided by the pushed/pulled ratio the H100 measured for the same launch
(call 5's sweep: the pair's ratio where that (shape, layout, config, launch) was measured, else its
tile's geomean):
  gemmforge db import --dir <session 27 call1.tar.gz: call1/tune/db> --db /tmp/s27.sqlite
  push_projection.py /tmp/s27.sqlite <call5.tar.gz: call5/sweep> > push-projection.txt
Per problem: ours = the fastest gpu-mode gemmforge launch in the database (the tuner's final
measurements), pushed where it is an in-cluster one; served = the faster of ours and cuBLASLt-
autotune's time there, as the table decides; speedup = cuBLASLt / served. Geomean per class; wins
= speedup above 1.01. The H100's ratios are assumed to hold on the H200."""
import collections, csv, math, os, re, sqlite3, sys

db = sqlite3.connect(sys.argv[1])
env = [i for i, k in db.execute("select id, key from environments") if "e7bf249d" in k][0]
est = collections.defaultdict(dict)
for r in csv.DictReader(open(os.path.join(sys.argv[2], "sweep.csv"))):
    if r["verdict"] == "pass" and r["estimate_us"]:
        est[(int(r["M"]), int(r["N"]), int(r["K"]), r["layout"])][r["config"]] = float(r["estimate_us"])
pair, per_tile = {}, collections.defaultdict(list)
for key, d in est.items():
    for cfg, us in d.items():
        twin = re.sub(r"(_\d+x\d+(?:_tmastore)?(?:_swap)?)(_k)", r"\1_push\2", cfg, count=1)
        if "_push" not in cfg and twin in d:
            pair[key + (cfg,)] = us / d[twin]
            per_tile[re.search(r"_(\d+x\d+)x64_", cfg).group(1)].append(us / d[twin])
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
tile_ratio = {t: geo(v) for t, v in per_tile.items()}
ours = collections.defaultdict(lambda: [1e9, 1e9])  # [as measured, projected]
for M, N, K, l, cfg, us in db.execute(
        "select M, N, K, layout, config, median_us from measurements where env=? and impl='gemmforge' and mode='gpu' "
        "and verdict='pass' and median_us > 0", (env,)):
    key = (M, N, K, l)
    proj = us
    if cfg.endswith("_dsm"):
        tile = re.search(r"_(\d+x\d+)x64_", cfg)
        proj = us / pair.get(key + (cfg,), tile_ratio.get(tile.group(1) if tile else "", 1.0))
    ours[key][0] = min(ours[key][0], us)
    ours[key][1] = min(ours[key][1], proj)
rows = []
for M, N, K, l, base in db.execute("select M, N, K, layout, baseline_us from winners where env=?", (env,)):
    if base and (M, N, K, l) in ours:
        cls = "tall-K" if M <= 512 and N <= 512 and K >= 4096 else ("K<=2048, M,N<=512" if M <= 512 and N <= 512 else "other")
        rows.append((cls, base, *ours[(M, N, K, l)]))
print("H100 pushed/pulled per tile (call 5):", ", ".join("%s %.3f" % kv for kv in sorted(tile_ratio.items())),
      "; %d pairs matched by launch" % len(pair))
print("%-18s %8s  %-26s  %-26s" % ("class", "problems", "measured: geomean, wins", "projected: geomean, wins"))
for cls in ("tall-K", "K<=2048, M,N<=512", "other"):
    rs = [r for r in rows if r[0] == cls]
    a = [b / min(m, b) for _, b, m, _ in rs]
    p = [b / min(q, b) for _, b, _, q in rs]
    print("%-18s %8d  %.3f, %4d                %.3f, %4d" % (cls, len(rs), geo(a), sum(x > 1.01 for x in a), geo(p),
                                                          sum(x > 1.01 for x in p)))
