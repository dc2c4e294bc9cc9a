"""Session 26 (H100): the best candidate without a cluster against the best in a cluster of 4 or 8
CTAs, per shape and layout, and cuBLASLt-autotune in the same run; from h100/call{1,2}.tar.gz.
Run from the repository root: python3 bench/results/2026-12-05-session26/derived/cluster_pairs.py"""
import csv, io, math, tarfile

HERE = "bench/results/2026-12-05-session26"


def members(call):
    with tarfile.open(f"{HERE}/h100/{call}.tar.gz") as t:
        return {m.name: t.extractfile(m).read().decode() for m in t.getmembers() if m.isfile()}


def time_of(r):  # the interleaved final where the candidate reached it, else its estimate
    return float(r["finalist_median_us"] or r["estimate_us"])


ratios, vs_lt = [], []
print(f"{'shape':>16} {'lay':>3} {'1x1 best':>9} {'cluster best':>12} {'1x1/cl':>7} {'cuBLASLt':>8}  kernels")
for call in ("call1", "call2"):
    f = members(call)
    sweep = list(csv.DictReader(io.StringIO(f[f"{call}/sweep/sweep.csv"])))
    results = list(csv.DictReader(io.StringIO(f[f"{call}/sweep/results.csv"])))
    lt = {(r["M"], r["N"], r["K"]): float(r["median_us"]) for r in results
          if r["impl"].startswith("cublaslt-autotune") and r["verdict"] == "pass"}
    shapes = sorted({(r["M"], r["N"], r["K"], r["layout"]) for r in sweep}, key=lambda s: tuple(map(int, s[:3])))
    for s in shapes:
        rows = [r for r in sweep if (r["M"], r["N"], r["K"], r["layout"]) == s and r["verdict"] == "pass"]
        plain = min((r for r in rows if "_1x1_" in r["config"]), key=time_of)
        cl = min((r for r in rows if "_1x1_" not in r["config"]), key=time_of)
        ratio = time_of(plain) / time_of(cl)
        ratios.append(ratio)
        vs_lt.append(lt[s[:3]] / time_of(plain))
        print(f"{'x'.join(s[:3]):>16} {s[3]:>3} {time_of(plain):9.2f} {time_of(cl):12.2f} {ratio:7.3f} {lt[s[:3]]:8.2f}  "
              f"{plain['config'][12:]} / {cl['config'][12:]}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"geomean, 1x1 best over cluster best: {g(ratios):.3f} (below 1: the cluster is slower); "
      f"cuBLASLt-autotune over the 1x1 best: {g(vs_lt):.3f}")
