# Session 38, call 2 (any Hopper card). The operands' L2 promotion in the TMA maps (committed:
# 256 B) against 128 B, 64 B and none, through a variant binary built with
# commands/l2-promotion-env.patch (build/bin-var/gemmforge; the kernels' code is unchanged).
# (1) Traces on 64x4096x4096 tn, loads alone and complete, three skinny tilings, per promotion.
# (2) A/B alternating twice: the 13 one-consumer skinny tiles (skinny-one-consumer.json) on
# session 37's ab-shapes.txt (L2-resident skinny, tall-K, two HBM-streaming controls), splits
# 1-2; six strong tiles (mid-control.json) on three compute-bound mid shapes, splits 1.
source scripts/device_call.sh call2
C=bench/results/2026-12-06-session38/commands
V=build/bin-var/gemmforge
pack() { tar cJf $OUT/call2.tar.xz -C $OUT call2; }
tar xJf build/kc38b.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc38b/* $GEMMFORGE_CACHE_DIR/
$V env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks="--kernel sm90_tn_f32_64x32x64_s16_c1_coop_1x2_mc_pdl --kernel sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl"
for p in 256 128 64 none; do for part in mma none; do
  GEMMFORGE_EXPERIMENT_L2_PROMOTION=$p timeout -k 5 60 $V trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$p-$part > $R/trace-$p-$part.log 2>&1
  echo "trace $p $part exit $? $(date +%T) ${SECONDS}s"
done; done
q; pack
for p in 256 128 64 none; do echo "promotion $p: loads alone / complete"; grep -h clocks_per_k_block $R/trace-$p-mma.log $R/trace-$p-none.log | awk '{print "   ", $2}' | paste -sd' '; done
ab() {  # $1 promotion, $2 repeat
  GEMMFORGE_EXPERIMENT_L2_PROMOTION=$1 timeout -k 5 90 $V bench --impl gemmforge,cublaslt-autotune --configs $C/skinny-one-consumer.json \
    --shapes bench/results/2026-12-06-session37/commands/ab-shapes.txt --layout tn --mode gpu --splits 1,2 --pdl on --finalists 6 --out $R/sk-p$1-$2 > $R/sk-p$1-$2.log 2>&1
  echo "sk-p$1-$2 exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/sk-p$1-$2/summary.md | head -1
  GEMMFORGE_EXPERIMENT_L2_PROMOTION=$1 timeout -k 5 90 $V bench --impl gemmforge,cublaslt-autotune --configs $C/mid-control.json \
    --shapes $C/mid-control-shapes.txt --layout tn --mode gpu --splits 1 --pdl on --finalists 6 --out $R/mid-p$1-$2 > $R/mid-p$1-$2.log 2>&1
  echo "mid-p$1-$2 exit $? $(date +%T) ${SECONDS}s"; grep -h "gemmforge (best)" $R/mid-p$1-$2/summary.md | head -1
}
for i in 1 2; do for p in 256 128 none; do ab $p $i; done; q; pack; done
python3 scripts/ab_sweeps.py p256=$R/sk-p256-1,$R/sk-p256-2 p128=$R/sk-p128-1,$R/sk-p128-2 pnone=$R/sk-pnone-1,$R/sk-pnone-2 2>&1 | tail -12
python3 scripts/ab_sweeps.py p256=$R/mid-p256-1,$R/mid-p256-2 p128=$R/mid-p128-1,$R/mid-p128-2 pnone=$R/mid-pnone-1,$R/mid-pnone-2 2>&1 | tail -12
pack; rm -rf $R; ls -la $OUT
