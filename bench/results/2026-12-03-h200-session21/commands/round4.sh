# Session 21, call 4: the 576 problems of the grid with K <= 512 outside the small-K class
# (commands/k512-shapes.txt, both layouts) reopened with `gemmforge tune --raster-groups 1,2`,
# resumed from call 3's database (build/tune-call3 = call3.tar.gz's tune/db), the same options;
# then the runtime library on those shapes with call 3's table and with this one (gpu mode,
# against cuBLASLt-autotune), and the Runtime GPU tests with the new table. One archive.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
C=bench/results/2026-12-03-h200-session21/commands
R=/tmp/call4 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
OUT=$R DB_CSV=build/tune-call3 KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-raster \
  TUNE_SHAPES="--shapes $C/k512-shapes.txt" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --raster-groups 1,2" \
  TIME_LIMIT_S=200 LIMIT_S=260 scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q
for v in before after; do
  if [ $v = before ]; then t=bench/results/2026-12-03-h200-session21/call3/table.json; else t=$R/tune/table.json; fi
  OUT=$R TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes $C/k512-shapes.txt" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=110 \
    scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|mid|small-K) |exit" | head -8
done
q
cp $R/tune/table.json tables/h200.json && timeout 80 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/runtime_tests.log | head
q
tar czf $OUT/call4.tar.gz -C /tmp call4 && ls -la $OUT
