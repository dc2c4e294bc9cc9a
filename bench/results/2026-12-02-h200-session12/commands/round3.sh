# Session 12, call 3: do our configs rank the same at the power cap as in their first estimates?
# Every config of cap-{tn,nn}.json (large tiles, with and without two-CTA multicast) is a
# finalist (--finalists 20), so each is timed in the interleaved rounds after the warm-up, at
# steady state, beside its quick estimate (sweep.csv: estimate_us, finalist_median_us).
# Committed kernels and binaries.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session12/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
export GEMMFORGE_CACHE_DIR=/tmp/kc-v0
# compile everything first, on all cores, so the timed run does not wait for NVRTC
for l in tn nn; do $B/gemmforge kernels --configs $C/cap-$l.json --layout $l --compile > $OUT/compile-$l.log 2>&1; done
TN="--shape 8192x8192x1024 --shape 4096x8192x4096 --shape 8192x8192x8192 --shape 4096x4096x4096 --shape 16384x4096x4096 --shape 8192x16384x2048"
NN="--shape 8192x8192x1024 --shape 4096x8192x4096 --shape 8192x8192x8192"
timeout 280 $B/gemmforge bench $TN --layout tn --impl gemmforge,cublaslt-autotune --configs $C/cap-tn.json --finalists 20 \
  --pdl on --mode gpu --time-limit 260 --out $OUT/cap-tn > $OUT/cap-tn.log 2>&1; echo "tn exit $? $(date +%T)"
timeout 150 $B/gemmforge bench $NN --layout nn --impl gemmforge,cublaslt-autotune --configs $C/cap-nn.json --finalists 20 \
  --pdl on --mode gpu --time-limit 130 --out $OUT/cap-nn > $OUT/cap-nn.log 2>&1; echo "nn exit $? $(date +%T)"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
for l in tn nn; do tail -12 $OUT/cap-$l.log; done
cd $OUT && tar czf /tmp/call3.tar.gz . && rm -rf $OUT/* && mv /tmp/call3.tar.gz $OUT/ && ls -la $OUT
