#!/usr/bin/env python3
"""Whether call 1's A/B says the lean finish is worth a tune (exit 0) or not (exit 1):
  ab_gate.py V0_RUN[,V0_RUN...] V1_RUN[,V1_RUN...]
Per candidate (shape, config with its launch suffix) measured in every run: v0's mean first
estimate over v1's. Prints the geomean per config family (the config name without its launch
suffix) and passes when the parts-apart families' geomean is at least 1.02 and the control (the
family built alike from both sources) lies within 3% of 1."""
import csv, math, os, re, sys
from collections import defaultdict


def times(dirs):
    t = defaultdict(list)
    for d in dirs.split(","):
        for r in csv.DictReader(open(os.path.join(d, "sweep.csv"))):
            if r["verdict"] == "pass":
                t[(r["M"], r["N"], r["K"], r["config"])].append(float(r["estimate_us"]))
    return t


def main():
    v0, v1 = times(sys.argv[1]), times(sys.argv[2])
    fam = defaultdict(list)
    for key in v0.keys() & v1.keys():
        ratio = (sum(v0[key]) / len(v0[key])) / (sum(v1[key]) / len(v1[key]))
        fam[re.sub(r"_k\d+.*$|_pdl$", "", key[3])].append(ratio)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
    pa, control = [], []
    for f, xs in sorted(fam.items()):
        print("%-52s v0/v1 geomean %.3f (min %.3f, max %.3f, %d)" % (f, gm(xs), min(xs), max(xs), len(xs)))
        (pa if f.endswith("_pa") else control).extend(xs)
    if not pa or not control:
        sys.exit("ab_gate: no parts-apart or no control pairs")
    ok = gm(pa) >= 1.02 and abs(gm(control) - 1) <= 0.03
    print("parts apart %.3f, control %.3f: %s" % (gm(pa), gm(control), "tune" if ok else "no tune"))
    sys.exit(0 if ok else 1)


main()
