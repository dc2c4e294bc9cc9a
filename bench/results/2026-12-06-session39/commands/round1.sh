# Session 39, call 1: session 38's call 2 (its commands/round2.sh), unchanged but for the call's name.
# Session 38, call 2 (any Hopper card). Two host/kernel questions about how our loads and clusters
# are set up, each against the committed code.
# (A) The operands' L2 promotion in the TMA maps (committed: 256 B) against 128 B, via a
# variant binary built with commands/l2-promotion-env.patch (build/bin-var/gemmforge; the kernels'
# code unchanged; the patch applies with git apply at the repository root). Traces (loads alone,
# complete) on 64x4096x4096 tn; A/B alternating twice: the 13 one-consumer skinny tiles on session
# 37's ab-shapes.txt (splits 1-2); once, if time is left, six strong tiles on two compute-bound mid
# shapes.
# (B) Cluster barriers: commands/cluster-relaxed.patch (build/kvar2: the set-up's cluster barrier
# relaxed after the init fence; the end's relaxed, after a producer tail that waits for every stage
# to be freed) and commands/cluster-no-end-barrier.patch (build/kvar3: the same tail, no end
# barrier; both apply with patch -p0 inside build/kvarN). Traces, the same A/B, then the GPU gate
# tests with each if time is left.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session38/commands
V=build/bin-var/gemmforge
pack() { tar cJf $OUT/call1.tar.xz -C $OUT call1; }
tar xJf build/kc38b.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc38b/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks="--kernel sm90_tn_f32_64x32x64_s16_c1_coop_1x2_mc_pdl --kernel sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl"
for p in 256 128; do for part in mma none; do
  GEMMFORGE_EXPERIMENT_L2_PROMOTION=$p timeout -k 5 60 $V trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-p$p-$part > $R/trace-p$p-$part.log 2>&1
  echo "trace p$p $part exit $? $(date +%T) ${SECONDS}s"
done; done
for v in kvar2 kvar3; do
  GEMMFORGE_DATA_DIR=$PWD/build/$v timeout -k 5 60 $B/gemmforge trace --shape 64x4096x4096 $ks --out $R/trace-$v > $R/trace-$v.log 2>&1
  echo "trace $v exit $? $(date +%T) ${SECONDS}s"
done
q; pack
for p in 256 128; do echo "promotion $p, loads alone / complete:"; grep -h clocks_per_k_block $R/trace-p$p-mma.log $R/trace-p$p-none.log | awk '{print $2}' | paste -sd' '; done
sk() {  # $1 name, $2 binary, $3 data dir or empty, $4 promotion
  GEMMFORGE_DATA_DIR=$3 GEMMFORGE_EXPERIMENT_L2_PROMOTION=$4 timeout -k 5 60 $2 bench --impl gemmforge,cublaslt-autotune --configs $C/skinny-one-consumer.json \
    --shapes bench/results/2026-12-06-session37/commands/ab-shapes.txt --layout tn --mode gpu --splits 1,2 --pdl on --finalists 6 --out $R/sk-$1 > $R/sk-$1.log 2>&1
  echo "sk-$1 exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/sk-$1/summary.md | head -1
}
mid() {
  GEMMFORGE_DATA_DIR=$3 GEMMFORGE_EXPERIMENT_L2_PROMOTION=$4 timeout -k 5 60 $2 bench --impl gemmforge,cublaslt-autotune --configs $C/mid-control.json \
    --shapes $C/mid-control-shapes.txt --time-limit 40 --layout tn --mode gpu --splits 1 --pdl on --finalists 6 --out $R/mid-$1 > $R/mid-$1.log 2>&1
  echo "mid-$1 exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/mid-$1/summary.md | head -1
}
for i in 1 2; do
  sk v0-$i $B/gemmforge "" ""; sk kvar3-$i $B/gemmforge $PWD/build/kvar3 ""
  sk kvar2-$i $B/gemmforge $PWD/build/kvar2 ""; sk p128-$i $V "" 128
done
q; pack
python3 scripts/ab_sweeps.py v0=$R/sk-v0-1,$R/sk-v0-2 p128=$R/sk-p128-1,$R/sk-p128-2 kvar2=$R/sk-kvar2-1,$R/sk-kvar2-2 kvar3=$R/sk-kvar3-1,$R/sk-kvar3-2 > $R/ab-sk.txt 2>&1; tail -8 $R/ab-sk.txt
pack
if [ $SECONDS -lt 200 ]; then
  mid v0-1 $B/gemmforge "" ""; mid kvar3-1 $B/gemmforge $PWD/build/kvar3 ""; mid p128-1 $V "" 128
  q; pack
fi
if [ $SECONDS -lt 300 ]; then
for v in kvar3 kvar2; do
    GEMMFORGE_DATA_DIR=$PWD/build/$v timeout -k 5 100 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.PassesTheGateOnGridAndOddShapes:Sm90Kernel.SplitKAndStreamKPassTheGate:Sm90Kernel.SplitKSummedInsideAClusterPassesTheGate' > $R/gpu_tests-$v.log 2>&1
    echo "gpu tests $v exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/gpu_tests-$v.log | head -8
  done
  pack
fi
rm -rf $R; ls -la $OUT
