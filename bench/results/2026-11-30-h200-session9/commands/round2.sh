set -uo pipefail
export PYTHONUNBUFFERED=1
# build/tune-carry/priors/NAME.csv = the sweep.csv inside bench/results/2026-11-29-h200-issue4-classes/{skinny,tall-k,tiny}.tar.gz,
# 2026-11-29-h200-session6/tall-k-dsm.tar.gz and 2026-11-29-h200-session8/small-k-new.tar.gz (carried to the device).
# The new kernels (kEpiPerWarp) under the Hopper kernel and runtime GPU tests (the shipped table's
# test waits for the re-tuned table: its hash is the old kernels').
timeout 120 build/bin/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*:Runtime*:-Runtime.TheShippedTableServesItsShapes' > $OUT/gpu_tests.log 2>&1
echo "gpu tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
P=build/tune-carry/priors
export KEEP=1 CONFIGS=bench/configs/tune-both.json TUNE_ARGS="--specialize 2"
LOG=tune-tiny TUNE_SHAPES="--shapes shapes/tiny.txt" PRIOR="tables/h200.json $P/tiny.csv" TIME_LIMIT_S=100 LIMIT_S=150 scripts/gpu_round.sh tune 2>&1 | tail -12
LOG=tune-grid-1 TUNE_SHAPES="--shapes grid" PRIOR="tables/h200.json $P/skinny.csv $P/tall-k.csv $P/tall-k-dsm.csv $P/small-k-new.csv" TIME_LIMIT_S=330 LIMIT_S=380 scripts/gpu_round.sh tune 2>&1 | tail -40
gzip -c $OUT/tune/tune.sqlite > $OUT/tune.sqlite.gz
tar czf $OUT/tune-logs.tar.gz -C $OUT tune/tune-tiny.log tune/tune-grid-1.log tune/table.json
rm -rf $OUT/tune
ls -la $OUT
