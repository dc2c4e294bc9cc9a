# Session 43, call 3 (either card). On an H200: round1.sh's H200 branch (the twin tune). On an
# H100: four-CTA clusters multicasting both operands, never measured: the cooperative 128x256 and
# 128x192 tiles (4 stages, TMA stores, fast walk) as 1x1, 2x1, 1x2 and 2x2 clusters
# (`clusters-2x2.json`, 16 configs) on seven compute-bound mid and large shapes
# (`compute-bound-mid.txt`), both layouts, gpu mode, every config re-timed in interleaved rounds
# (--finalists 99) beside cuBLASLt-autotune.
CALL=${CALL:-call3}
C=bench/results/2026-12-07-session43/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  rm -rf $R; CALL=$CALL bash $C/round1.sh; exit
fi
$B/gemmforge kernels --configs $C/clusters-2x2.json --layout both --compile 2>&1 | tail -1
$B/gemmforge bench --shapes $C/compute-bound-mid.txt --layout both --impl gemmforge,cublaslt-autotune \
  --configs $C/clusters-2x2.json --finalists 99 --mode gpu --out $R/clusters 2>&1 | grep -v "^\[" | tail -25
q; pack
rm -rf $R; ls -la $OUT
