#!/usr/bin/env python3
"""Best launch of each kind (whole, split, split-last, sk, sk-last) per (shape, layout) of a bench
run with --splits 1,auto,sk [--shared-tile-sum both], beside cuBLASLt-autotune: launch_kinds.py <run dir>
(the bench --out folder, with sweep.csv and results.csv)."""
import csv, collections, sys
d_=sys.argv[1]
r=list(csv.DictReader(open(d_+'/sweep.csv')))
d=collections.defaultdict(dict)
for x in r:
    if x['verdict']!='pass': continue
    k=(x['M'],x['N'],x['K'],x['layout']); d[k][x['config']]=float(x['finalist_median_us'] or x['estimate_us'])
lt={}
for x in csv.DictReader(open(d_+'/results.csv')):
    if x['impl']=='cublaslt-autotune': lt[(x['M'],x['N'],x['K'],x['layout'])]=float(x['median_us'])
for k,v in d.items():
    cat=collections.defaultdict(dict)
    for c,t in v.items():
        kind=('sk' if '_sk' in c else 'split' if '_k' in c else 'whole')+('-last' if '_lastsum' in c else '')
        cat[kind][c]=t
    f=lambda m: '%.1f %s'%(min(m.values()),min(m,key=m.get)[8:].replace('_pdl','')) if m else '-'
    print(k,'lt %.1f'%lt.get(k,0),' | '.join('%s %s'%(n,f(cat[n])) for n in ('whole','split','split-last','sk','sk-last')))
