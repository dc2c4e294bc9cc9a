#!/usr/bin/env python3
"""What replaying repeated calls from CUDA graphs gains, per backend, from one bench run.

Reads a results.csv (or a .tar.gz holding one) that measured gemmforge-lib-direct beside
gemmforge-lib, gemmforge-lib-except-pdl, gemmforge-lib-replay-all and/or gemmforge-lib-adaptive
(session 16's call 4; that setting was dropped after it), and prints, per mode and per backend that served
the problem (cuBLASLt, an sm80 kernel, a Hopper kernel with or without PDL), the geometric mean,
min and max of direct time / replayed time over the problems (shape and layout), with the
problems where replaying lost most.

  scripts/replay_by_backend.py bench/results/2026-12-02-h200-session16/call1/lib-replay.tar.gz
"""
import argparse
import collections
import csv
import io
import math
import sys
import tarfile

DIRECT = "gemmforge-lib-direct"
VARIANTS = ("gemmforge-lib", "gemmforge-lib-except-pdl", "gemmforge-lib-adaptive", "gemmforge-lib-replay-all")


def rows_of(path):
    if path.endswith(".tar.gz"):
        with tarfile.open(path) as t:
            member = next(m for m in t.getmembers() if m.name.endswith("results.csv"))
            return list(csv.DictReader(io.TextIOWrapper(t.extractfile(member), encoding="utf-8")))
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def backend(note):
    served = note.split(";")[0]
    if served.startswith("cublaslt"):
        return "cuBLASLt"
    if "sm80_" in served:
        return "sm80 kernel"
    return "Hopper kernel, PDL" if "_pdl" in served else "Hopper kernel, no PDL"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="results.csv, or a .tar.gz with one")
    ap.add_argument("--worst", type=int, default=3, help="problems listed where replaying gained least")
    a = ap.parse_args()
    times = collections.defaultdict(dict)  # (M, N, K, layout) -> (impl, mode) -> (us, note)
    for r in rows_of(a.results):
        if r["verdict"] != "pass" or not r["median_us"]:
            continue
        times[(int(r["M"]), int(r["N"]), int(r["K"]), r["layout"])][(r["impl"], r["mode"])] = (float(r["median_us"]), r["note"])
    modes = sorted({m for d in times.values() for (_, m) in d})
    found = False
    for variant in VARIANTS:
        for mode in modes:
            groups = collections.defaultdict(list)
            for key, d in times.items():
                if (DIRECT, mode) in d and (variant, mode) in d:
                    groups[backend(d[(DIRECT, mode)][1])].append((d[(DIRECT, mode)][0] / d[(variant, mode)][0], key))
            if not groups:
                continue
            found = True
            print(f"\n{variant} vs {DIRECT}, mode {mode}: direct time / replayed time")
            print(f"| served by | problems | geomean | min | max | least gained |")
            print(f"|---|---|---|---|---|---|")
            for name in sorted(groups):
                g = sorted(groups[name])
                gm = math.exp(sum(math.log(x) for x, _ in g) / len(g))
                worst = ", ".join(f"{M}x{N}x{K} {l} {x:.3f}" for x, (M, N, K, l) in g[: a.worst])
                print(f"| {name} | {len(g)} | {gm:.3f}x | {g[0][0]:.3f}x | {g[-1][0]:.3f}x | {worst} |")
    if not found:
        sys.exit(f"{a.results}: no problem measured both {DIRECT} and one of {', '.join(VARIANTS)}")


if __name__ == "__main__":
    main()
