# What the raster tune's groups gained on its problems: from the database before the tune (its
# winners CSV) and the tune's decisions, our best kernel's time before over after, split by whether
# the new best is the same kernel (a control for the two runs' conditions), a build launched with a
# raster group, or another automatic-group build; and the baseline's time before over after.
# Usage: python3 raster_gain.py SHAPES.txt BEFORE/db-winners.csv AFTER/table.decisions.csv
import csv, math, re, sys

shapes = {tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()}
before = {}
for r in csv.DictReader(open(sys.argv[2])):
    k = (int(r['M']), int(r['N']), int(r['K']), r['layout'])
    if k[:3] in shapes:
        before[k] = r
after = {(int(r['M']), int(r['N']), int(r['K']), r['layout']): r for r in csv.DictReader(open(sys.argv[3]))}
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float('nan')
split = {'same kernel': [], 'new best with a raster group': [], 'new best, automatic group': []}
base, best_before, best_after = [], [], []
for k, b in before.items():
    a = after[k]
    base.append(float(b['baseline_us']) / float(a['baseline_us']))
    best_before.append(float(b['baseline_us']) / float(b['best_us']))
    best_after.append(float(a['baseline_us']) / float(a['best_us']))
    r = float(b['best_us']) / float(a['best_us'])
    kind = 'same kernel' if a['best'] == b['best'] else (
        'new best with a raster group' if re.search(r'_g\d+', a['best']) else 'new best, automatic group')
    split[kind].append(r)
print(f'{len(before)} problems; cuBLASLt time before/after {g(base):.4f}')
print(f'our best over cuBLASLt: before {g(best_before):.4f}, after {g(best_after):.4f}')
for kind, v in split.items():
    print(f'{kind:>30}: {len(v):4d} problems, best time before/after {g(v):.4f}')
