# Session 31, call 13 (any Hopper card): raster groups (auto, 16, 32, 64, 128 tile rows) for the
# 128x176 ping-pong with 4 and 5 stages, every (config, group) re-timed in interleaved rounds beside
# cuBLASLt-autotune, gpu mode, tn, on 16384x12288x1024, 8192x8192x1024 and 4096x4096x8192: does
# an order that re-reads less from DRAM give the five-stage tile back what call 12 saw it lose?
source scripts/device_call.sh call13
pack() { tar czf $OUT/call13.tar.gz -C $OUT call13; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 200 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/pp176-s45.json --group-m auto,16,32,64,128 \
  --shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x4096x8192 --layout tn --mode gpu --finalists 99 \
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
