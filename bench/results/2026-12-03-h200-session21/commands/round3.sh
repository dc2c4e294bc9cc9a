# Session 21, call 3: the 96 small-K problems (shapes/small-k.txt, both layouts) reopened with
# `gemmforge tune --raster-groups 1,2` (this commit's tuner; the shipped kernels, 61f2120's),
# resumed from session 13's database (the shipped table's: bench/results/2026-12-02-h200-session13/tune-final)
# with the options it was tuned with; then the runtime library on those shapes with the shipped
# table and with the new one (gpu mode, against cuBLASLt-autotune), and the Runtime GPU tests
# with the new table as tables/h200.json. Everything in one archive.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call3 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
OUT=$R DB_CSV=bench/results/2026-12-02-h200-session13/tune-final KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-raster \
  TUNE_SHAPES="--shapes shapes/small-k.txt" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --raster-groups 1,2" \
  TIME_LIMIT_S=230 LIMIT_S=290 scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q
for v in before after; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/small-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=100 \
    scripts/gpu_round.sh lib 2>&1 | grep -E "small-K|all  |exit" | head -8
done
q
cp $R/tune/table.json tables/h200.json && timeout 80 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $?"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/runtime_tests.log | head
q
tar czf $OUT/call3.tar.gz -C /tmp call3 && ls -la $OUT
