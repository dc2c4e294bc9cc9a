# Session 22: the library's and cuBLASLt-autotune's offline times per class, this session's grid
# run (call 2) over session 16's (call 2), each at its best layout: geomean of new / old.
# Usage: python3 compare-offline.py OLD_results.csv NEW_results.csv
import collections, csv, math, sys

def load(path):
    d = {}
    for r in csv.DictReader(open(path)):
        if r['mode'] == 'offline' and r['verdict'] == 'pass':
            d[(int(r['M']), int(r['N']), int(r['K']), r['layout'], r['impl'])] = (float(r['median_us']), r['class'])
    return d

old, new = load(sys.argv[1]), load(sys.argv[2])
def best(d, s, impl):
    v = [d[s + (l, impl)][0] for l in ('nn', 'tn') if s + (l, impl) in d]
    return min(v) if v else None
cls = {k[:3]: v[1] for k, v in new.items()}
agg = collections.defaultdict(lambda: collections.defaultdict(list))
for s in sorted(cls):
    for impl in ('gemmforge-lib', 'cublaslt-autotune'):
        a, b = best(old, s, impl), best(new, s, impl)
        if a and b:
            agg[cls[s]][impl].append(math.log(b / a))
            agg['all'][impl].append(math.log(b / a))
print('class     shapes  library new/old  cublaslt-autotune new/old  (offline, best layout, geomean)')
for c in ('all', 'tiny', 'tall-K', 'small-K', 'skinny', 'mid', 'large'):
    lib, lt = agg[c]['gemmforge-lib'], agg[c]['cublaslt-autotune']
    print(f'{c:9} {len(lib):6}  {math.exp(sum(lib) / len(lib)):15.3f}  {math.exp(sum(lt) / len(lt)):25.3f}')
