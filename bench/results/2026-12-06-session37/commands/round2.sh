# Session 37, call 2 (any Hopper card; the skinny-grid sweep at the end only on an H200 with time
# left). K-split consumers (ConsumerMode::ksplit: two warpgroups on alternate k-blocks of a tile,
# the second's sums handed over in shared memory), first through the correctness gate, then
# against their one-consumer twins, then by phase:
#   1. GPU tests: the three Sm90Kernel tests with k-split configs (the gate, split-K, stream-K, cluster
#      sums), TraceLaunch (incl. session 36's never-run MainLoopHalvesRunAlone), Runtime and C API
#      (the tables re-keyed by db carry).
#   2. bench: commands/ksplit-ab.json (13 one-consumer tiles and their k-split twins) on
#      commands/ab-shapes.txt, tn, splits 1 and 2, against cuBLASLt-autotune.
#   3. trace on 64x4096x4096 tn: complete, loads alone (--ablate mma), math alone (--ablate loads)
#      for both consumer modes of 64x32 s16 1x2 multicast and 64x64 s8 (session 36's round 7, the
#      loads alone by tiling, stays owed: device time).
#   4. H200 only, if under 380 s so far: session 36's round 5 skinny sweep (cluster tiles).
# Cubins compiled on the CPU machine are carried (build/kc37.tar.xz).
source scripts/device_call.sh call2
C=bench/results/2026-12-06-session37/commands
pack() { tar cJf $OUT/call2.tar.xz -C $OUT call2; }
tar xJf build/kc37.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc37/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 220 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.PassesTheGateOnGridAndOddShapes:Sm90Kernel.SplitKAndStreamKPassTheGate:Sm90Kernel.SplitKSummedInsideAClusterPassesTheGate:TraceLaunch*:Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[  (PASSED|FAILED) |tests ran" $R/gpu_tests.log | head -12
q; pack
timeout -k 5 140 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/ksplit-ab.json \
  --shapes $C/ab-shapes.txt --layout tn --mode gpu --splits 1,2 --pdl on --finalists 6 \
  --time-limit 120 --out $R/ab > $R/ab.log 2>&1
echo "ab exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/ab/summary.md 2>/dev/null | head -3
q; pack
ks=""
for k in 64x32x64_s16_c1_coop_1x2_mc 64x32x64_s16_c2_ksplit_1x2_mc 64x64x64_s8_c1_coop_1x1 64x64x64_s8_c2_ksplit_1x1; do
  ks="$ks --kernel sm90_tn_f32_${k}_pdl"
done
for part in none mma loads; do
  timeout -k 5 60 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$part > $R/trace-$part.log 2>&1
  echo "trace $part exit $? $(date +%T) ${SECONDS}s"; q
done
grep -hE "^sm90|clocks_per_k_block" $R/trace-none.log | head -30
pack
if grep -q '"gpu": "NVIDIA H200' $R/env.json && [ $SECONDS -lt 300 ]; then
  timeout -k 5 150 $B/gemmforge bench --impl gemmforge,cublaslt-autotune \
    --configs bench/results/2026-12-06-session35/commands/skinny-clusters.json \
    --shapes shapes/skinny.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 4 \
    --time-limit 130 --out $R/skinny > $R/skinny.log 2>&1
  echo "skinny sweep exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/skinny/summary.md 2>/dev/null | head -3
  q; pack
fi
rm -rf $R; ls -la $OUT
