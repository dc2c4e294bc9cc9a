# Session 16, call 3: every GPU test of gemmforge_gpu_tests with this session's binaries; the
# ceilings again (the launch ceiling now has a replayed-graph path); the shipped table in server
# mode on the 100-shape grid sample and on the 24 held-out LLM shapes (gpu, offline, server),
# the library with its default replays and without any (gemmforge-lib-direct), against all four
# baselines.
set -uo pipefail
tar xJf build/carry2.tar.xz
export GEMMFORGE_BIN=build/bin-ab
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 240 build/bin-ab/gemmforge_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $OUT/gpu_tests.log | head -20
timeout 120 build/bin-ab/gemmforge ceilings --out $OUT/ceilings > $OUT/ceilings.log 2>&1; echo "ceilings exit $?"
grep -E "launch" $OUT/ceilings.log | head -6
TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,gemmforge-lib-direct,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=200 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib(-direct)? \(best\) \| cublaslt-autotune \| all|stopped" | head -9
LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout \
  IMPLS=gemmforge-lib,gemmforge-lib-direct,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=150 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib(-direct)? \(tn\) \| cublaslt-autotune \| all|stopped" | head -9
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
ls -la $OUT
