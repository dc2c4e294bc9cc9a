# Session 26, call 2: (a) the whole grid (both layouts) reopened with `tune --cluster-twins`,
# resumed from call 1's database (its tall-K problems already reopened; carried as
# build/call1-db), so every other problem whose finalists split K measures its cluster twins;
# (b) the runtime library on the tall-K shapes with the shipped table and with the new one, gpu
# mode, against cuBLASLt-autotune; (c) the Runtime GPU tests with the new table.
source scripts/device_call.sh call2
TWINS=${TWINS:-2x2,4x2,2x4}
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/call1-db KEEP=1 \
  CONFIGS=bench/configs/tune-both.json LOG=tune-cluster-twins TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --cluster-twins $TWINS" \
  TIME_LIMIT_S=240 LIMIT_S=270 scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q
for v in before after; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune \
    MODES=gpu LIMIT_S=80 scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -8
done
q
cp $R/tune/table.json tables/h200.json && timeout -k 5 80 $B/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/runtime_tests.log | head
q
cp $R/tune/table.json $OUT/table.json; tar czf $OUT/call2.tar.gz -C $OUT call2 && rm -rf $R; ls -la $OUT
