#!/usr/bin/env python3
"""Where a kernel's warps stall, from `ncu --page source --csv --print-source sass` (written by
`SOURCE=1 scripts/gpu_round.sh profile` as ncu_gemmforge_source.csv.gz): the stall reasons summed
over the kernel, then every SASS instruction with at least MIN samples, in program order.

  scripts/ncu_stalls.py ncu_gemmforge_source.csv.gz [MIN=20]
"""
import csv
import gzip
import sys


def main(path, least):
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        rows = csv.reader(f)
        next(rows)  # the kernel's name
        head = next(rows)
        body = [r for r in rows if len(r) == len(head)]
    samples = head.index("Warp Stall Sampling (All Samples)")
    executed = head.index("Instructions Executed")
    reasons = [h for h in head if h.startswith("stall_") and "Not Issued" not in h]
    col = {h: head.index(h) for h in reasons}
    total = sum(int(r[samples]) for r in body)
    print(f"{total} samples over {len(body)} SASS instructions")
    summed = sorted(((sum(int(r[col[h]]) for r in body), h[6:]) for h in reasons), reverse=True)
    print("by reason: " + ", ".join(f"{name} {n}" for n, name in summed if n))
    print(f"\n index  samples  executed  instruction (top reasons)")
    for i, r in enumerate(body):
        if int(r[samples]) >= least:
            top = sorted(((int(r[col[h]]), h[6:]) for h in reasons), reverse=True)[:2]
            why = ", ".join(f"{name} {n}" for n, name in top if n)
            print(f"{i:6} {r[samples]:>8} {r[executed]:>9}  {r[1].strip()[:60]}  ({why})")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 20)
