#!/usr/bin/env python3
"""A small database for checking `gemmforge db carry` on the CPU: session 11's tune-call3 export
cut to four shapes (both layouts), written as an export into DIR (then `gemmforge db import`).
  carry_subset.py DIR"""
import csv, gzip, os, sys

csv.field_size_limit(10**9)
SRC = "bench/results/2026-12-02-h200-session11/tune-call3/"
KEEP = {("2048", "2048", "2048"), ("1024", "4096", "1024"), ("64", "64", "4096"), ("4096", "4096", "1024")}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
read = lambda n: list(csv.reader(gzip.open(SRC + f"db-{n}.csv.gz", "rt")))


def write(n, rows):
    with gzip.open(os.path.join(out, f"db-{n}.csv.gz"), "wt", newline="") as f:
        csv.writer(f).writerows(rows)


def of_kept(rows):
    h = rows[0]
    m, n, k = h.index("M"), h.index("N"), h.index("K")
    return [h] + [r for r in rows[1:] if (r[m], r[n], r[k]) in KEEP]


measurements = of_kept(read("measurements"))
write("measurements", measurements)
names = {r[measurements[0].index("config")] for r in measurements[1:]}
candidates = read("candidates")
write("candidates", [candidates[0]] + [r for r in candidates[1:] if r[0] in names])
write("winners", of_kept(read("winners")))
for n in ("environments", "runs", "meta"):
    write(n, read(n))
