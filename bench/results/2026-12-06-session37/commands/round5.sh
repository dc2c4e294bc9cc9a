# Session 37's next call (prepared, not run; any Hopper card). Build the variant first on the CPU
# machine: mkdir -p build/kvar1 && cp -r kernels build/kvar1/ && (cd build/kvar1 && patch -p1 <
# ../../bench/results/2026-12-06-session37/commands/ksplit-release-at-retire.patch), and carry
# build/kvar1 with build/carry.tar.xz. (1) round4.sh's GPU tests. (2) Traces on 64x4096x4096 tn
# (complete, loads alone, math alone) of the one-consumer 64x32 s16 1x2 multicast, the committed
# k-split and the variant (each k-split stage freed as soon as its own group retires). (3) A/B,
# alternating twice: commands/ksplit-ab.json on commands/ab-shapes.txt, committed and variant.
source scripts/device_call.sh call5
C=bench/results/2026-12-06-session37/commands
pack() { tar cJf $OUT/call5.tar.xz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 170 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.PassesTheGateOnGridAndOddShapes:Sm90Kernel.SplitKAndStreamKPassTheGate:Sm90Kernel.SplitKSummedInsideAClusterPassesTheGate:TraceLaunch*:Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/gpu_tests.log | head -20
q; pack
ks="--kernel sm90_tn_f32_64x32x64_s16_c1_coop_1x2_mc_pdl --kernel sm90_tn_f32_64x32x64_s16_c2_ksplit_1x2_mc_pdl --kernel sm90_tn_f32_64x64x64_s8_c2_ksplit_1x1_pdl"
for v in v0 rar; do for part in none mma loads; do
  dir=""; [ $v = rar ] && dir=$PWD/build/kvar1
  GEMMFORGE_DATA_DIR=$dir timeout -k 5 60 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$v-$part > $R/trace-$v-$part.log 2>&1
  echo "trace $v $part exit $? $(date +%T)"
done; done
q; pack
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 90 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/ksplit-ab.json \
    --shapes $C/ab-shapes.txt --layout tn --mode gpu --splits 1,2 --pdl on --finalists 6 --out $R/$1 > $R/$1.log 2>&1
  echo "$1 exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/$1/summary.md | head -1
}
for i in 1 2; do ab v0-$i ""; ab rar-$i $PWD/build/kvar1; done
q; pack
grep -hE "clocks_per_k_block" $R/trace-*.log | head -40
python3 scripts/ab_sweeps.py v0=$R/v0-1,$R/v0-2 rar=$R/rar-1,$R/rar-2 2>&1 | tail -40
pack; rm -rf $R; ls -la $OUT
