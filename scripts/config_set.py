#!/usr/bin/env python3
"""Writes a JSON list of kernel configs for `gemmforge bench --configs FILE`: the valid configs of
`gemmforge kernels` whose knobs are all in the given sets.

  scripts/config_set.py --bm 128,256 --bn 128,192,256 --stages 3,4 --out set.json
Knobs left out are not filtered. Names are parsed from `gemmforge kernels` output, e.g.
sm90_tn_f32_128x256x64_s3_c2_coop_2x1_mc_tmastore.
"""
import argparse
import json
import re
import subprocess
import sys

NAME = re.compile(r"^sm90_(nn|tn)_(f32|f16)_(\d+)x(\d+)x(\d+)_s(\d+)_c(\d+)_(coop|pingpong)_(\d)x(\d)(_mc)?(_tmastore)?$")


def ints(s):
    return None if s is None else {int(x) for x in s.split(",")}


def strs(s):
    return None if s is None else set(s.split(","))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gemmforge", default="build/bin/gemmforge")
    p.add_argument("--layout", default="both")
    p.add_argument("--acc", default="f32")
    p.add_argument("--bm"), p.add_argument("--bn"), p.add_argument("--stages"), p.add_argument("--consumers")
    p.add_argument("--mode", help="coop,pingpong")
    p.add_argument("--cluster", help="e.g. 1x1,2x1,1x2")
    p.add_argument("--tma-store", help="0,1")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    listing = subprocess.run([a.gemmforge, "kernels", "--layout", a.layout, "--acc", a.acc],
                             check=True, capture_output=True, text=True).stdout
    want = {"bm": ints(a.bm), "bn": ints(a.bn), "stages": ints(a.stages), "consumers": ints(a.consumers),
            "mode": strs(a.mode), "cluster": strs(a.cluster), "tma_store": ints(a.tma_store)}
    out = []
    for line in listing.splitlines():
        m = NAME.match(line.split()[0]) if line.strip() else None
        if not m:
            continue
        lay, acc, bm, bn, bk, st, co, mode, cm, cn, mc, ts = m.groups()
        c = {"layout": lay, "acc": acc, "block_m": int(bm), "block_n": int(bn), "block_k": int(bk),
             "stages": int(st), "consumers": int(co), "mode": mode, "cluster_m": int(cm), "cluster_n": int(cn),
             "multicast": bool(mc), "tma_store": bool(ts)}
        have = {"bm": c["block_m"], "bn": c["block_n"], "stages": c["stages"], "consumers": c["consumers"],
                "mode": mode, "cluster": f"{cm}x{cn}", "tma_store": int(bool(ts))}
        if all(w is None or have[k] in w for k, w in want.items()):
            out.append(c)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    print(f"{len(out)} configs -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
