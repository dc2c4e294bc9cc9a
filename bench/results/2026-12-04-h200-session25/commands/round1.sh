# Session 25, call 1: clusters of four and eight CTAs with both operands multicast (A along a
# cluster row, B along a column; kernels/sm90/hgemm_traits.cuh), which cuBLASLt-autotune picks on
# most tall-K shapes (4x2, 2x4, 2x2 clusters with split-K). (a) the Sm90Kernel GPU tests, the new
# ClustersOfFourAndEightPassTheGate among them; (b) a sweep on 12 tall-K shapes, both layouts, of
# the shipped table's split tiles (parts apart) against the same tiles in 2x2, 4x1, 4x2 and 2x4
# clusters, splits auto/8/12/16, PDL on, gpu mode, with cuBLASLt-autotune; (c) traces of one
# launch each on 256x256x16384 tn: where the main loop's time goes with and without the cluster.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry.tar.xz
B=build/bin-ab
C=bench/results/2026-12-04-h200-session25/commands
export GEMMFORGE_CACHE_DIR=/tmp/kc
R=$OUT/call1 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
timeout 150 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.*' > $R/sm90_tests.log 2>&1
echo "sm90 tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]" $R/sm90_tests.log | head -20
grep -m5 -B2 -A6 "Failure" $R/sm90_tests.log | head -40
q
SHAPES="--shape 256x256x16384 --shape 256x256x8192 --shape 256x512x16384 --shape 256x512x8192 --shape 512x512x16384 --shape 512x512x8192 --shape 128x512x16384 --shape 512x128x16384 --shape 128x256x16384 --shape 256x128x8192 --shape 128x128x8192 --shape 64x256x4096"
timeout 200 $B/gemmforge bench $SHAPES --layout both --impl gemmforge,cublaslt-autotune --configs $C/tallk-clusters.json \
  --splits auto,8,12,16 --pdl on --mode gpu --finalists 6 --time-limit 170 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; tail -30 $R/sweep.log
q
timeout 60 $B/gemmforge trace --shape 256x256x16384 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k16_pdl \
  --kernel sm90_tn_f32_64x128x64_s6_c1_coop_4x2_mc_k16_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_2x2_mc_k16_pdl \
  --out $R/trace > $R/trace.log 2>&1
echo "trace exit $? $(date +%T)"; grep -E "main loop|k-block|first stage|unit|µs" $R/trace.log | head -40
q
