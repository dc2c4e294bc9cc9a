# Session 24, call 1 (session 23's call 6, which had no device time left): (a) the Sm90Kernel
# split-K GPU tests, parts apart among them; (b) the whole grid (both layouts) reopened with
# `gemmforge tune --parts-apart`, resumed from session 21's call 4 database carried on the CPU to
# this kernel source (build/tune-carried: every candidate that builds to the same code keeps its
# results; `db carry`'s log in build/tune-carried/carry.log), the options of session 21's calls
# 3-4; (c) the runtime library on the tall-K shapes with the shipped table and with the new one (gpu
# mode, against cuBLASLt-autotune); (d) the Runtime GPU tests with the new table. One archive, and
# the new table beside it as $OUT/table.json.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call1 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
timeout 120 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitK*' > $R/split_tests.log 2>&1
echo "split tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]" $R/split_tests.log | head
q
OUT=$R DB_CSV=build/tune-carried KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-parts-apart \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --parts-apart" \
  TIME_LIMIT_S=240 LIMIT_S=300 scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q
for v in before after; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=80 \
    scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -8
done
q
cp $R/tune/table.json tables/h200.json && timeout 80 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/runtime_tests.log | head
q
cp $R/tune/table.json $OUT/table.json; tar czf $OUT/call1.tar.gz -C /tmp call1 && ls -la $OUT
