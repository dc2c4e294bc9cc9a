set -uo pipefail
export PYTHONUNBUFFERED=1
# Binaries with the one-wave split-K count (auto_splits) and the own-best seed, built on the CPU machine.
export GEMMFORGE_BIN=build/bin-carry
B=$GEMMFORGE_BIN
D=bench/results/2026-12-01-h200-session10
timeout 40 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitK*:Runtime.*' > $OUT/gpu_tests_split.log 2>&1; echo "split-K and runtime gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests_split.log | head
# Resume call 1's database on the shapes whose finalists now launch with another split count:
# 4 more measurements each (the tiers of call 1 plus 4), seeds first: the problem's own best as
# it launches now, the other layout's, the nearest problem's, the class winner.
DB_CSV=$D/tune-call1 KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-split BUDGET=10 \
  TUNE_SHAPES="--shapes $D/split-shapes.txt" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:28 --budget-under 128:20 --neighbour-seeds 3 --seeds 1" TIME_LIMIT_S=200 LIMIT_S=250 \
  scripts/gpu_round.sh tune 2>&1 | tail -24
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-split.log table.json
# The library on those shapes with call 1's table (tables/h200.json) and the new one, one after the other.
TABLE=tables/h200.json LIB_SHAPES="--shapes $D/split-shapes.txt" MODES=gpu NAME=lib-split-before IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=100 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -6
TABLE=$OUT/tune/table.json LIB_SHAPES="--shapes $D/split-shapes.txt" MODES=gpu NAME=lib-split-after IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=100 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -6
rm -rf $OUT/tune
ls -la $OUT
