#!/usr/bin/env python3
"""Session 24 call 1: each split config measured with its parts apart (name suffix `_pa`)
against its twin without, per problem and mode, from the tune database's measurements
(environment 4, the call's run), and the best of each against cuBLASLt-autotune.
Usage: pa_twins.py ../call1/tune/db/db-measurements.csv.gz > pa-twins.txt"""
import csv, gzip, math, sys
from collections import defaultdict

ENV = "4"
rows = csv.DictReader(gzip.open(sys.argv[1], "rt"))
# (mode, problem) -> {config or impl: median µs}, only passing measurements of this run's env
t = defaultdict(dict)
for r in rows:
    if r["env"] != ENV or r["verdict"] != "pass" or not r["median_us"]:
        continue
    key = (r["mode"], (int(r["M"]), int(r["N"]), int(r["K"]), r["layout"]))
    name = r["config"] if r["impl"] == "gemmforge" else r["impl"]
    us = float(r["median_us"])
    t[key][name] = min(us, t[key].get(name, us))

# the knob's part of a config name: "_pa" before the split ("..._1x1_pa_k8_pdl")
def is_pa(name): return "_pa_" in name or name.endswith("_pa")
def twin_of(name): return name.replace("_pa_", "_", 1) if "_pa_" in name else name[:-3]

def gm(xs): return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
def q(xs):
    xs = sorted(xs); return " ".join(f"{xs[round(i * (len(xs) - 1) / 10)]:.3f}" for i in range(11))

print("# session 24 call 1, tune --parts-apart: the split finalists' twins built with parts apart")
print(f"# from call1/tune/db/db-measurements.csv.gz (env {ENV}), made by derived/pa_twins.py\n")
for mode in ("estimate", "gpu"):
    pairs, vs_lt, vs_other, gains = [], [], [], []
    pa_wins = other_wins = 0
    for (m, prob), times in t.items():
        if m != mode: continue
        pa = {c: v for c, v in times.items() if is_pa(c)}
        for c, v in pa.items():
            twin = times.get(twin_of(c))
            if twin is not None: pairs.append(twin / v)
        lt = times.get("cublaslt-autotune")
        others = [v for c, v in times.items()
                  if not is_pa(c) and not c.startswith("cublas") and c != "torch"]
        if pa and lt is not None and others:
            bpa, bot = min(pa.values()), min(others)
            vs_lt.append(lt / bpa); vs_other.append(bot / bpa)
            pa_wins += bpa < lt; other_wins += bot < lt
            gains.append((bot / bpa, prob, bpa, bot, lt))
    if not pairs: continue
    print(f"## mode {mode}: {len(pairs)} twin pairs, twin time / parts-apart time geomean {gm(pairs):.3f}, "
          f"max {max(pairs):.3f}, min {min(pairs):.3f}, >1.03: {sum(p > 1.03 for p in pairs)}, "
          f"<0.97: {sum(p < 0.97 for p in pairs)}")
    print(f"problems with both and cuBLASLt-autotune: {len(vs_lt)}; best parts-apart / best other kernel "
          f"(time ratio other/pa) geomean {gm(vs_other):.3f}")
    print(f"cuBLASLt-autotune time / best parts-apart time: geomean {gm(vs_lt):.3f}; pa faster than "
          f"cuBLASLt: {pa_wins}; best other kernel faster than cuBLASLt: {other_wins}")
    print(f"cuBLASLt/pa quantiles: {q(vs_lt)}")
    if mode == "gpu":
        print("largest parts-apart gains (shape, pa µs, best other kernel µs, cuBLASLt µs):")
        for g, (M, N, K, lay), bpa, bot, lt in sorted(gains, reverse=True)[:10]:
            print(f"  {M}x{N}x{K} {lay} {bpa:.2f} {bot:.2f} {lt:.2f}")
    print()
