#!/usr/bin/env python3
"""Per-shape table of a class benchmark: for each shape, each implementation at its best layout
(TF/s, layout, config), the speedup of gemmforge over cuBLASLt-autotune and cuBLAS, and the card's
SM clock and power while that shape ran, with how far gemmforge is from the tensor-core ceiling
at that clock (132 SMs x 4096 dense fp16 FLOP per clock; 1070 TF/s at 1980 MHz).

  scripts/class_table.py --mode gpu results.csv [more.csv ...] > table.md
Reads the results.csv files that gemmforge bench writes.
"""
import argparse
import csv
import math
import sys

FLOP_PER_CLOCK = 132 * 4096  # H200: SMs x dense fp16 tensor FLOP per SM per clock


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", default="gpu")
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    best = {}  # (shape, impl) -> row with the lowest median over layouts
    for path in a.files:
        for r in csv.DictReader(open(path)):
            if r["mode"] != a.mode or r["verdict"] != "pass" or not r["median_us"]:
                continue
            key = ((int(r["M"]), int(r["N"]), int(r["K"])), r["impl"])
            if key not in best or float(r["median_us"]) < float(best[key]["median_us"]):
                best[key] = r
    shapes = sorted({s for s, _ in best}, key=lambda s: (s[0] * s[1] * s[2], s))
    print(f"mode {a.mode}; TF/s at each implementation's best layout; clock and power sampled once per "
          "shape and mode, after all implementations ran; ceiling = 132 × 4096 FLOP × SM clock\n")
    print("| M×N×K | gemmforge TF/s | config (layout) | autotune TF/s | cuBLAS TF/s | vs autotune | vs cuBLAS "
          "| SM MHz | W | gemmforge / ceiling |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ratios_a, ratios_c = [], []
    for s in shapes:
        g, lt, cb = best.get((s, "gemmforge")), best.get((s, "cublaslt-autotune")), best.get((s, "cublas"))
        if not g:
            continue
        cfg = g["note"].split(";")[0].replace("sm90_", "")
        ra = float(lt["median_us"]) / float(g["median_us"]) if lt else float("nan")
        rc = float(cb["median_us"]) / float(g["median_us"]) if cb else float("nan")
        if lt:
            ratios_a.append(ra)
        if cb:
            ratios_c.append(rc)
        mhz = float(g["sm_clock_mhz"]) if g["sm_clock_mhz"] else float("nan")
        ceiling = FLOP_PER_CLOCK * mhz * 1e6 / 1e12
        tf = lambda row: f"{float(row['tflops']):.0f}" if row else "-"  # a baseline the run did not time
        print(f"| {s[0]}×{s[1]}×{s[2]} | {float(g['tflops']):.0f} | {cfg} ({g['layout']}) | "
              f"{tf(lt)} | {tf(cb)} | {ra:.3f}× | {rc:.3f}× | {mhz:.0f} | "
              f"{float(g['power_w']):.0f} | {float(g['tflops']) / ceiling:.1%} of {ceiling:.0f} |")
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
    low = lambda xs: min(xs) if xs else float("nan")
    print(f"\n{len(ratios_a)} shapes: geometric mean {gm(ratios_a):.3f}× vs cuBLASLt-autotune "
          f"(min {low(ratios_a):.3f}×), {gm(ratios_c):.3f}× vs cuBLAS (min {low(ratios_c):.3f}×)")


if __name__ == "__main__":
    sys.exit(main())
