#!/usr/bin/env python3
"""How the H100's table and the H200's differ: per class, the problems where both serve a kernel
of ours, the same kernel (config and launch), cuBLASLt on both, or one of each; and the speedups
each tuner recorded (its final against cuBLASLt-autotune on its own card).
  tables_compared.py tables/h200.json tables/h100.json"""
import collections, json, math, sys

def classify(M, N, K):  # src/core/shape.cpp's classes
    if max(M, N, K) <= 512: return "tiny"
    if max(M, N) <= 512 and K >= 4096: return "tall-K"
    if K <= 256 and min(M, N) >= 4096: return "small-K"
    if min(M, N) <= 256 and max(M, N) >= 4096 and K >= 4096: return "skinny"
    if min(M, N, K) >= 4096: return "large"
    return "mid"

def entries(path):
    t = json.load(open(path))
    return t["gpu"], {(e["M"], e["N"], e["K"], e["layout"]): e for e in t["entries"]}

def served(e):
    c = e["config"]
    return "cublaslt" if isinstance(c, str) else json.dumps([c, e.get("launch"), e.get("specialized", False)], sort_keys=True)

(gpu_a, a), (gpu_b, b) = entries(sys.argv[1]), entries(sys.argv[2])
rows = collections.defaultdict(collections.Counter)
logs = collections.defaultdict(lambda: [[], []])
for k in sorted(a.keys() & b.keys()):
    cls = classify(*k[:3])
    sa, sb = served(a[k]), served(b[k])
    kind = ("both cuBLASLt" if sa == sb == "cublaslt" else "same kernel" if sa == sb else
            "kernels differ" if "cublaslt" not in (sa, sb) else f"kernel on {gpu_a} only" if sb == "cublaslt" else f"kernel on {gpu_b} only")
    for c in (cls, "all"):
        rows[c][kind] += 1
        logs[c][0].append(math.log(max(a[k].get("speedup_vs_cublaslt", 1.0), 1.0)))
        logs[c][1].append(math.log(max(b[k].get("speedup_vs_cublaslt", 1.0), 1.0)))
kinds = ["same kernel", "kernels differ", f"kernel on {gpu_a} only", f"kernel on {gpu_b} only", "both cuBLASLt"]
print(f"# {sys.argv[1]} ({gpu_a}) against {sys.argv[2]} ({gpu_b}), problems per class")
print("class | " + " | ".join(kinds) + f" | served, {gpu_a} | served, {gpu_b}")
for c in ["tiny", "tall-K", "small-K", "skinny", "mid", "large", "all"]:
    ga, gb = (math.exp(sum(v) / len(v)) for v in logs[c])
    print(f"{c} | " + " | ".join(str(rows[c][k]) for k in kinds) + f" | {ga:.3f}x | {gb:.3f}x")
print("(served: each tuner's own final against cuBLASLt-autotune, a tie or loss counted as 1.0)")
