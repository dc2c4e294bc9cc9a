#!/usr/bin/env python3
"""Names the numbers in a cuBLASLt record note ("id 66 tile 402 stages 19 cluster 3 ...") using the
enums of cublasLt.h: tile (cublasLtMatmulTile_t), stages (cublasLtMatmulStages_t) and cluster
(cublasLtClusterShape_t).

  scripts/cublaslt_algo.py "id 66 tile 402 stages 19 cluster 3 splitk 1 swizzle 0"
  scripts/cublaslt_algo.py --csv results.csv      # every cuBLASLt record of a results.csv
"""
import argparse
import csv
import re

ENUMS = {"tile": "CUBLASLT_MATMUL_TILE_", "stages": "CUBLASLT_MATMUL_STAGES_", "cluster": "CUBLASLT_CLUSTER_SHAPE_"}


def load(header):
    text = open(header).read()
    names = {}
    for key, prefix in ENUMS.items():
        names[key] = {int(v): n for n, v in re.findall(prefix + r"(\w+)\s*=\s*(\d+)", text)}
    return names


def decode(note, names):
    out = []
    for key, value in re.findall(r"\b(id|tile|stages|cluster|splitk|swizzle) (\S+)", note):
        name = names.get(key, {}).get(int(value)) if value.isdigit() else None
        out.append(f"{key} {name or value}")
    return ", ".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("note", nargs="?")
    p.add_argument("--csv")
    p.add_argument("--header", default="/usr/local/cuda/include/cublasLt.h")
    a = p.parse_args()
    names = load(a.header)
    if a.note:
        print(decode(a.note, names))
    if a.csv:
        for r in csv.DictReader(open(a.csv)):
            if r["impl"].startswith("cublaslt") and "tile" in r["note"]:
                print(f"{r['M']}x{r['N']}x{r['K']} {r['layout']} {r['impl']} {r['mode']}: "
                      f"{decode(r['note'].split('; ')[-1], names)}")


if __name__ == "__main__":
    main()
