# Session 38, call 1 (any Hopper card) = session 37's round5.sh, then session 36's round 7 if time
# is left. Before it, on the CPU machine: build/kvar1 (session 37's header: the kernels folder
# with commands/ksplit-release-at-retire.patch applied), cubins of both kernel folders for
# ksplit-ab.json precompiled into build/kc38 (carried as build/kc38.tar.xz), build/carry.tar.xz.
# (1) GPU tests with k-split configs, TraceLaunch, Runtime, C API. (2) Traces on 64x4096x4096 tn
# (complete, loads alone, math alone): one-consumer 64x32 s16 1x2 multicast, committed k-split,
# the release-at-retire variant. (3) A/B alternating twice: committed against variant.
# (4) Session 36's round 7: loads alone and complete by tiling.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session37/commands
pack() { tar cJf $OUT/call1.tar.xz -C $OUT call1; }
tar xJf build/kc38.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc38/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 170 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.PassesTheGateOnGridAndOddShapes:Sm90Kernel.SplitKAndStreamKPassTheGate:Sm90Kernel.SplitKSummedInsideAClusterPassesTheGate:TraceLaunch*:Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/gpu_tests.log | head -20
q; pack
ks="--kernel sm90_tn_f32_64x32x64_s16_c1_coop_1x2_mc_pdl --kernel sm90_tn_f32_64x32x64_s16_c2_ksplit_1x2_mc_pdl --kernel sm90_tn_f32_64x64x64_s8_c2_ksplit_1x1_pdl"
for v in v0 rar; do for part in none mma loads; do
  dir=""; [ $v = rar ] && dir=$PWD/build/kvar1
  GEMMFORGE_DATA_DIR=$dir timeout -k 5 60 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$v-$part > $R/trace-$v-$part.log 2>&1
  echo "trace $v $part exit $? $(date +%T) ${SECONDS}s"
done; done
q; pack
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 90 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/ksplit-ab.json \
    --shapes $C/ab-shapes.txt --layout tn --mode gpu --splits 1,2 --pdl on --finalists 6 --out $R/$1 > $R/$1.log 2>&1
  echo "$1 exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/$1/summary.md | head -1
}
for i in 1 2; do ab v0-$i ""; ab rar-$i $PWD/build/kvar1; done
q; pack
grep -hE "^sm90|clocks_per_k_block" $R/trace-*-none.log | head -20
python3 scripts/ab_sweeps.py v0=$R/v0-1,$R/v0-2 rar=$R/rar-1,$R/rar-2 2>&1 | tail -30
pack
if [ $SECONDS -lt 420 ]; then
  ks=""
  for k in 64x32x64_s8_c1_coop_1x1_swap 64x32x64_s8_c1_coop_1x2_mc_swap 64x32x64_s16_c1_coop_1x2_mc_swap \
           64x64x64_s4_c1_coop_1x1 64x64x64_s8_c1_coop_1x1 64x64x64_s14_c1_coop_1x1 64x64x64_s8_c1_coop_1x1_k2 \
           64x64x64_s8_c1_coop_1x2_mc; do
    ks="$ks --kernel sm90_tn_f32_${k}_pdl"
  done
  for part in mma none; do
    timeout -k 5 70 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/tiling-$part > $R/tiling-$part.log 2>&1
    echo "tiling trace $part exit $? $(date +%T) ${SECONDS}s"; q
  done
  pack
fi
rm -rf $R; ls -la $OUT
