# Session 13, call 7: the tune of call 6 resumed (its database without the carried rows of the
# two earlier kernel sources: build/tune-call6-pruned, for the carry limit) (it stopped at its time limit with 3 of 2000
# problems open) for the complete table; the GPU tests with that table as the shipped one; then
# the runtime library with it on the grid (gpu and offline modes, against cuBLASLt-autotune and
# cuBLAS) for what the device time left allows (the bench's --time-limit; the shapes it reached).
set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-ab
B=$GEMMFORGE_BIN
S=bench/results/2026-12-02-h200-session13
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
DB_CSV=build/tune-call6-pruned KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-finish \
  TUNE_SHAPES="--shapes grid" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6" \
  TIME_LIMIT_S=80 LIMIT_S=110 scripts/gpu_round.sh tune 2>&1 | tail -8
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/tune/table.json $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-finish.log
rm -rf $OUT/tune
cp $OUT/table.json tables/h200.json
timeout 150 build/bin-t/gemmforge_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=${LIB_LIMIT_S:-230} scripts/gpu_round.sh lib 2>&1 | tail -30
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
ls -la $OUT
