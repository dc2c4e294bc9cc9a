#!/usr/bin/env python3
"""cuBLASLt-autotune's headroom on the skinny class, with the large operand streamed from HBM.

Reads a bench results.csv (gpu mode, e.g. a library grid run) and, for every skinny shape whose
large operand is over --l2-keeps-mib (what a warm L2 keeps between calls, scripts/l2_residency.py),
prints cuBLASLt-autotune's time (best layout) over the floor
  launch + max(bytes / HBM read rate, 2MNK / compute rate)
with the compute rate at the peak and, for the compute-bound shapes, at the sustained rate.
Usage: scripts/skinny_headroom.py results.csv [--hbm-tbps 4.51 --peak-tflops 1071 --sustained-tflops 651]
"""
import argparse
import collections
import csv
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--hbm-tbps", type=float, default=4.51, help="HBM read ceiling (gemmforge ceilings)")
    ap.add_argument("--peak-tflops", type=float, default=1071, help="fp16 peak at the highest clock")
    ap.add_argument("--sustained-tflops", type=float, default=651, help="fp16 sustained at the power cap")
    ap.add_argument("--launch-us", type=float, default=0.45, help="an empty kernel in a graph")
    ap.add_argument("--l2-keeps-mib", type=float, default=40)
    a = ap.parse_args()
    lt = {}
    for r in csv.DictReader(open(a.results)):
        if r["mode"] != "gpu" or r["class"] != "skinny" or r["impl"] != "cublaslt-autotune":
            continue
        k = (int(r["M"]), int(r["N"]), int(r["K"]))
        lt[k] = min(float(r["median_us"]), lt.get(k, math.inf))
    gm = lambda l: math.exp(sum(map(math.log, l)) / len(l))
    by_side = collections.defaultdict(lambda: ([], []))
    print("M N K large_operand_MiB cublaslt_us floor_us headroom headroom_sustained bound")
    for (M, N, K), t in sorted(lt.items()):
        big = max(M, N) * K * 2 / 2**20
        if big <= a.l2_keeps_mib:
            print(M, N, K, round(big), f"{t:.2f}", "-", "-", "-", "kept in L2: no HBM floor")
            continue
        mem = 2 * (M * K + N * K + M * N) / (a.hbm_tbps * 1e6)
        flops = 2 * M * N * K
        peak = a.launch_us + max(mem, flops / (a.peak_tflops * 1e6))
        sus = a.launch_us + max(mem, flops / (a.sustained_tflops * 1e6))
        bound = "memory" if mem >= flops / (a.sustained_tflops * 1e6) else "compute"
        print(M, N, K, round(big), f"{t:.2f}", f"{peak:.2f}", f"{t / peak:.3f}", f"{t / sus:.3f}", bound)
        by_side[min(M, N)][0].append(t / peak)
        by_side[min(M, N)][1].append(t / sus)
    for side, (hp, hs) in sorted(by_side.items()):
        print(f"# small side {side}: {len(hp)} shapes; headroom geomean {gm(hp):.3f} (peak compute), "
              f"{gm(hs):.3f} (sustained); under 1.05: {sum(h < 1.05 for h in hp)} / {sum(h < 1.05 for h in hs)}")


if __name__ == "__main__":
    main()
