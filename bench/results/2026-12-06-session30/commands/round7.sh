# Session 30, call 7 (any Hopper card): our ping-pong 128x176 and 128x160 tiles in two-CTA
# clusters with multicast (cuBLAS's fastest kernels on these shapes are ping-pong 176x128 and
# 128x160 tiles in 1x2 / 2x1 clusters, call 5), 4 and 5 stages, beside the cooperative 128x256,
# every config re-timed in interleaved rounds beside cuBLASLt-autotune, gpu mode, tn.
source scripts/device_call.sh call7
pack() { tar czf $OUT/call7.tar.gz -C $OUT call7; }
C=bench/results/2026-12-06-session30/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 200 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/pp-clusters.json \
  --shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x4096x4096 --shape 4096x16384x2048 \
  --layout tn --mode gpu --finalists 99 --time-limit 170 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $?"; q
python3 - $R/sweep <<'PY'
import csv, sys
lt = {}
for r in csv.DictReader(open(sys.argv[1] + "/results.csv")):
    if r["impl"] == "cublaslt-autotune": lt[(r["M"], r["N"], r["K"])] = float(r["median_us"])
for r in csv.DictReader(open(sys.argv[1] + "/sweep.csv")):
    k = (r["M"], r["N"], r["K"])
    if r["finalist_median_us"]: print(f"{'x'.join(k):18} {r['config']:55} {float(r['finalist_median_us']):8.1f} us  x{lt[k] / float(r['finalist_median_us']):.3f}")
PY
pack; rm -rf $R; ls -la $OUT
