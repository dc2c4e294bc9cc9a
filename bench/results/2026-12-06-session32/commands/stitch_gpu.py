#!/usr/bin/env python3
"""The shipped H100 table's gpu-mode grid run, put together from the two runs that measured it:
call 2 measured the whole grid with call 2's table; call 4 re-tuned only tiny and tall-K (the table
changed on 100 tiny and 54 tall-K entries and nowhere else) and measured those 128 shapes again.
So the shipped table's library is call 2's rows for the other 872 shapes and call 4's rows for the
128. Writes one results.csv of both; `gemmforge report` summarizes it.
  stitch_gpu.py call2/lib-grid/results.csv call4/lib-tiny-tallk/results.csv OUT.csv"""
import csv, sys

grid, retuned, out = sys.argv[1:4]
new_rows = [r for r in csv.DictReader(open(retuned)) if r["mode"] == "gpu"]
new_shapes = {(r["M"], r["N"], r["K"]) for r in new_rows}
assert {r["class"] for r in new_rows} == {"tiny", "tall-K"}, "call 4 measured tiny and tall-K only"
rows = [r for r in csv.DictReader(open(grid)) if r["mode"] == "gpu" and (r["M"], r["N"], r["K"]) not in new_shapes]
assert not {r["class"] for r in rows} & {"tiny", "tall-K"}, "every tiny and tall-K shape was measured again"
with open(out, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(new_rows[0].keys()))
    w.writeheader()
    w.writerows(rows + new_rows)
print(f"{len({(r['M'], r['N'], r['K']) for r in rows})} shapes from {grid}, {len(new_shapes)} from {retuned}")
