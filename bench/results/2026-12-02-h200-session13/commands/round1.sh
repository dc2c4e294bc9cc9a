# Session 13, call 1: where the time of one launch goes (gemmforge trace: a traced build of each
# kernel, gated, 20 launches, then one more with its phase stamps read back), for the tiles
# whose losses sessions 11-12 could not explain: the cooperative 128x256's per-tile fixed cost on
# 4096x4096xK (K = 256, 1024), the ping-pong and 256x128 tiles beside it, the small-K 8192x8192x256,
# the tall-K split launches, and the one-consumer 64x64 on 2048x256x8192 nn. Then the same
# kernels untraced through the bench (gpu mode, gated), to show what the stamps cost.
set -uo pipefail
B=build/bin-ab  # gemmforge alone (the tree with every binary is over the carry limit)
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
export GEMMFORGE_CACHE_DIR=/tmp/kc
t() { local name=$1; shift; timeout 120 $B/gemmforge trace "$@" --out $OUT/$name > $OUT/$name.log 2>&1; echo "$name exit $? $(date +%T)"; }
COOP=sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore_pdl
t coop-tn --shape 4096x4096x256 --shape 4096x4096x1024 --kernel $COOP --kernel sm90_tn_f32_128x256x64_s4_c2_coop_1x1_pdl \
  --kernel sm90_tn_f32_128x128x64_s4_c2_pingpong_1x1_tmastore_pdl --kernel sm90_tn_f32_256x128x64_s3_c2_coop_1x1_tmastore_pdl \
  --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_pdl
t small-k --shape 8192x8192x256 --kernel sm90_tn_f32_128x128x64_s4_c2_pingpong_1x2_mc_tmastore_pdl --kernel $COOP \
  --kernel sm90_tn_f32_128x256x64_s4_c2_coop_2x1_mc_tmastore_pdl
t tall-k --shape 256x512x16384 --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_k16_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k4_pdl
t tall-k-small --shape 64x64x4096 --kernel sm90_tn_f32_64x16x64_s4_c1_coop_1x1_k16_np_pdl_dsm --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_tmastore_k16_pdl
t small-tile --shape 2048x256x8192 --shape 4096x128x4096 --kernel sm90_nn_f32_64x64x64_s8_c1_coop_1x1_tmastore_pdl
# The same kernels untraced, gated and timed by the bench (gpu mode), against cuBLASLt-autotune.
timeout 120 $B/gemmforge bench --shape 4096x4096x256 --shape 4096x4096x1024 --layout tn --impl gemmforge,cublaslt-autotune \
  --configs bench/results/2026-12-02-h200-session13/commands/coop-tn.json --splits 1 --pdl on --mode gpu --out $OUT/bench-coop-tn > $OUT/bench-coop-tn.log 2>&1
echo "bench exit $? $(date +%T)"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call1.tar.gz . && rm -rf $OUT/* && mv /tmp/call1.tar.gz $OUT/ && ls -la $OUT
