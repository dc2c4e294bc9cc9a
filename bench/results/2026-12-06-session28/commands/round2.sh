# Session 28, call 2: sums pushed inside a cluster (KernelConfig::cluster_push, the work tree)
# against the pulled sum of the same configs (the shipped table's seven in-cluster configs and
# their push twins, commands/in-cluster.json; both build from this tree, so one run holds both).
# The split-K GPU tests (the new one compares C bit for bit with the pulled sum); traces of both on
# two shapes; then in-cluster launches only, gpu mode, 16 shapes, both layouts, 2 runs (cuBLASLt-
# autotune beside them in the first). If the twins are at least 3% faster (geomean, ab_twins.py),
# on an H200: the grid tuned again from session 27's database carried on the CPU to this source
# (build/carried-db; every candidate but the push twins builds to the same code, so only problems
# with an in-cluster finalist reopen, each finalist measured with its push twin), then the library
# on the tall-K shapes with the carried shipped table and the new one. One archive, rewritten
# after each step.
source scripts/device_call.sh call2
C=bench/results/2026-12-06-session28/commands
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 150 $B/gemmforge_gpu_tests \
  --gtest_filter='Sm90Kernel.SplitKPushed*:Sm90Kernel.SplitKSummedInsideACluster*:Sm90Kernel.SplitKAndStreamKAreDeterministic' \
  > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure" $R/gpu_tests.log | head
q; pack
timeout -k 5 60 $B/gemmforge trace --shape 64x64x16384 --kernel sm90_tn_f32_64x16x64_s4_c1_coop_1x1_k16_np_pdl_dsm \
  --kernel sm90_tn_f32_64x16x64_s4_c1_coop_1x1_push_k16_np_pdl_dsm --out $R/trace > $R/trace.log 2>&1; echo "trace exit $?"
timeout -k 5 60 $B/gemmforge trace --shape 128x128x8192 --kernel sm90_tn_f32_64x64x64_s4_c1_coop_1x1_k16_np_pdl_dsm \
  --kernel sm90_tn_f32_64x64x64_s4_c1_coop_1x1_push_k16_np_pdl_dsm --out $R/trace2 > $R/trace2.log 2>&1; echo "trace2 exit $?"
grep -E "launch|red_|span" $R/trace.log $R/trace2.log | cut -c1-150 | head -30
q; pack
S="--shape 64x64x4096 --shape 64x64x16384 --shape 64x128x8192 --shape 128x128x4096 --shape 128x128x8192 --shape 256x64x2048"
S="$S --shape 64x512x4096 --shape 128x256x4096 --shape 128x64x12288 --shape 64x64x1024 --shape 256x128x4096 --shape 64x256x2048"
S="$S --shape 64x128x12288 --shape 512x64x2048 --shape 128x64x8192 --shape 64x256x8192"
for rep in 1 2; do
  if [ $rep = 1 ]; then I=gemmforge,cublaslt-autotune; else I=gemmforge; fi
  timeout -k 5 150 $B/gemmforge bench $S --layout both --impl $I --configs $C/in-cluster.json --splits auto,8,16 \
    --cluster-reduction on --pdl on --mode gpu --finalists 1 --time-limit ${AB_S:-120} --out $R/ab-$rep > $R/ab-$rep.log 2>&1
  echo "ab $rep exit $? $(date +%T)"; q; pack
done
python3 scripts/ab_twins.py _push $R/ab-1,$R/ab-2 > $R/ab.txt 2>&1
tail -12 $R/ab.txt
gm=$(awk '$1=="all"{print $2}' $R/ab.txt); echo "twins geomean ${gm:-none}"
q; pack
TUNE_S=$(( ${CALL_S:-540} - SECONDS - 2 * ${LIB_S:-40} ))
if awk -v g="${gm:-0}" 'BEGIN{exit !(g >= 1.03)}' && grep -q '"gpu": "NVIDIA H200' $R/env.json && [ $TUNE_S -ge 90 ]; then
  echo "tune for ${TUNE_S} s"
  OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-push \
    TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
    TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --parts-apart --cluster-push" \
    TIME_LIMIT_S=$TUNE_S LIMIT_S=$((TUNE_S + 25)) scripts/gpu_round.sh tune 2>&1 | tail -14
  rm -f $R/tune/tune.sqlite*
  q; pack
  for v in after before; do
    if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
    [ -f $t ] || continue
    OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune \
      MODES=gpu LIMIT_S=${LIB_S:-40} scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -6
    q; pack
  done
else
  echo "no tune (twins ${gm:-none}, $TUNE_S s left)"
fi
pack; rm -rf $R; ls -la $OUT
