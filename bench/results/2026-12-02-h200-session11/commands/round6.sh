# Session 11, call 6: two main-loop variants against the committed kernels (v0), alternating
# runs, kernels read from build/kernels-v{1,2} (GEMMFORGE_DATA_DIR; the committed kernels with
# v1-two-groups-in-flight.patch / v2-two-accumulator-chains.patch applied, not committed):
#   v1: two wgmma groups in flight (wait_group 2; a stage is freed two k-blocks later);
#   v2: two independent accumulator chains on tiles of <= 64 accumulators (odd k-steps of a
#       stage into a second set, summed after the tile), so consecutive wgmmas do not depend.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
NN="--shape 2048x256x8192 --shape 2048x256x2048 --shape 64x1024x16384 --shape 128x1024x16384 --shape 1024x1024x2048 --shape 512x2048x4096"
TN="--shape 4096x4096x1024 --shape 2048x1024x512 --shape 1024x4096x1024 --shape 2048x128x8192"
for rep in 1 2; do
  for v in v0 v1 v2; do
    export GEMMFORGE_CACHE_DIR=/tmp/kc-$v
    if [ $v = v0 ]; then unset GEMMFORGE_DATA_DIR; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-$v; fi
    timeout 100 $B/gemmforge bench $NN --layout nn --impl gemmforge,cublaslt-autotune --configs $C/ab-inflight-nn.json --splits auto \
      --pdl on --mode gpu --out $OUT/nn-$v-$rep > $OUT/nn-$v-$rep.log 2>&1; echo "nn $v $rep exit $?"
    timeout 100 $B/gemmforge bench $TN --layout tn --impl gemmforge,cublaslt-autotune --configs $C/ab-inflight-tn.json --splits auto \
      --pdl on --mode gpu --out $OUT/tn-$v-$rep > $OUT/tn-$v-$rep.log 2>&1; echo "tn $v $rep exit $?"
  done
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call6.tar.gz . && rm -rf $OUT/* && mv /tmp/call6.tar.gz $OUT/ && ls -la $OUT
