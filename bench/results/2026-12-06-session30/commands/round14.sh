# Session 30, call 14 (any Hopper card): raster groups (tile rows per group: auto, 1, 2, 4, 8, 16,
# 32) for the 128x176 ping-pong and 128x256 cooperative tiles on three K = 1024-2048 shapes, every
# (config, group) re-timed in interleaved rounds, gpu mode, tn: does the order a wave of units
# reads new tiles in change the ~1 us per unit (a new tile's first loads from DRAM)?
source scripts/device_call.sh call14
pack() { tar czf $OUT/call14.tar.gz -C $OUT call14; }
C=bench/results/2026-12-06-session30/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 200 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/raster-two.json --group-m auto,1,2,4,8,16,32 \
  --shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x16384x2048 --layout tn --mode gpu --finalists 99 \
  --time-limit 170 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $?"; q
python3 - $R/sweep <<'PY'
import csv, sys
lt = {}
for r in csv.DictReader(open(sys.argv[1] + "/results.csv")):
    if r["impl"] == "cublaslt-autotune": lt[(r["M"], r["N"], r["K"])] = float(r["median_us"])
for r in csv.DictReader(open(sys.argv[1] + "/sweep.csv")):
    k = (r["M"], r["N"], r["K"])
    if r["finalist_median_us"]: print(f"{'x'.join(k):18} {r['config']:50} {r['launch'][:40]:40} {float(r['finalist_median_us']):8.1f} us  x{lt[k] / float(r['finalist_median_us']):.3f}")
PY
pack; rm -rf $R; ls -la $OUT
