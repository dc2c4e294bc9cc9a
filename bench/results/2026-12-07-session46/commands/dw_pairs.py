# Static against dynamic-walk builds per shape, from the sweep.csv files of one call's runs (the
# finalist medians, averaged over the runs): each config's time, and for every config built both
# ways, static time / dynamic time (above 1: the dynamic walk is faster).
# Usage: python3 dw_pairs.py RUN/sweep.csv [RUN2/sweep.csv ...]
import collections, csv, math, sys

times = collections.defaultdict(list)  # (shape, config) -> [us per run]
for path in sys.argv[1:]:
    for row in csv.DictReader(open(path)):
        if row['verdict'] == 'pass':
            times[(f"{row['M']}x{row['N']}x{row['K']}", row['config'])].append(float(row['finalist_median_us'] or row['estimate_us']))
shapes = sorted({s for s, _ in times}, key=lambda s: [int(x) for x in s.split('x')])
static = sorted({c for _, c in times if '_dw' not in c})
mean = lambda v: sum(v) / len(v)
print('static config → its _dw twin; times in µs (mean of', len(sys.argv) - 1, 'runs)')
for c in static:
    d = c.replace('_lean', '_dw_lean') if '_lean' in c else c + '_dw'
    print(f'\n{c}')
    print(f"{'shape':>18} {'static':>9} {'dynamic':>9} {'static/dynamic':>15}")
    ratios = []
    for s in shapes:
        if (s, c) in times and (s, d) in times:
            a, b = mean(times[(s, c)]), mean(times[(s, d)])
            ratios.append(a / b)
            print(f'{s:>18} {a:9.2f} {b:9.2f} {a / b:15.3f}')
    print(f"{'geomean':>18} {'':9} {'':9} {math.exp(sum(map(math.log, ratios)) / len(ratios)):15.3f}")
