# The walks against each other per shape, from the sweep.csv files of one call's runs (finalist
# medians, averaged over the runs). For each build with the default static walk: its time, and the
# default time over the time of its twins with the dynamic walk (_dw), the walk along N (_wn) and
# both (_dw_wn): above 1, the twin is faster. Usage: python3 walk_pairs.py RUN/sweep.csv [...]
import collections, csv, math, sys

times = collections.defaultdict(list)  # (shape, config) -> [us per run]
for path in sys.argv[1:]:
    for row in csv.DictReader(open(path)):
        if row['verdict'] == 'pass':
            times[(f"{row['M']}x{row['N']}x{row['K']}", row['config'])].append(float(row['finalist_median_us'] or row['estimate_us']))


def with_flags(config, flags):
    """The config's name with its walk flags set to `flags` (in the order KernelConfig::name writes them)."""
    parts = [p for p in config.split('_') if p not in ('dw', 'wn')]
    at = parts.index('lean') if 'lean' in parts else (parts.index('pa') if 'pa' in parts else len(parts))
    return '_'.join(parts[:at] + list(flags) + parts[at:])


shapes = sorted({s for s, _ in times}, key=lambda s: [int(x) for x in s.split('x')])
bases = sorted({c for _, c in times if '_dw' not in c and '_wn' not in c})
twins = [('dw',), ('wn',), ('dw', 'wn')]
mean = lambda v: sum(v) / len(v)
print('default-walk config → default time / twin time (above 1: the twin is faster); µs are means of',
      len(sys.argv) - 1, 'runs')
for c in bases:
    print(f'\n{c}')
    print(f"{'shape':>18} {'default µs':>11}" + ''.join(f" {'/_' + '_'.join(t):>9}" for t in twins))
    ratios = {t: [] for t in twins}
    for s in shapes:
        if (s, c) not in times:
            continue
        a = mean(times[(s, c)])
        line = f'{s:>18} {a:11.2f}'
        for t in twins:
            d = with_flags(c, t)
            if (s, d) in times:
                r = a / mean(times[(s, d)])
                ratios[t].append(r)
                line += f' {r:9.3f}'
            else:
                line += f" {'-':>9}"
        print(line)
    print(f"{'geomean':>18} {'':11}" + ''.join(
        f" {math.exp(sum(map(math.log, ratios[t])) / len(ratios[t])) if ratios[t] else float('nan'):9.3f}" for t in twins))
