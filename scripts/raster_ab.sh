#!/usr/bin/env bash
# One-off A/B: raster group 8 against auto on large shapes (tn), finalists timed interleaved at steady state.
set -uo pipefail
export GEMMFORGE_CACHE_DIR=/tmp/kc
timeout 400 build/bin/gemmforge bench --shape 8192x8192x8192 --shape 16384x4096x4096 --shape 12288x4096x4096 --shape 16384x4096x8192 --shape 4096x16384x16384 --shape 16384x16384x8192 \
  --layout tn --impl gemmforge,cublaslt-autotune --configs bench/configs/raster-ab.json --group-m 8,auto --finalists 8 --mode gpu \
  --out "$OUT/raster-ab" > "$OUT/raster-ab.log" 2>&1
tail -12 "$OUT/raster-ab.log"
python3 - <<'PY'
import csv, os, collections
rows=list(csv.DictReader(open(os.environ['OUT']+'/raster-ab/sweep.csv')))
for r in rows:
    if r['finalist_median_us']: print(r['M'],r['N'],r['K'],r['config'][12:],r['finalist_median_us'][:8],r['launch'])
PY
