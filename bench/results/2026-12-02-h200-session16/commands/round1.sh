# Session 16, call 1: the runtime GPU tests (replayed calls among them), then the 100-shape grid
# sample, both layouts, offline and server modes: the library with cuBLASLt's calls replayed
# (gemmforge-lib, the default), with no replays and with every call replayed, beside
# cuBLASLt-autotune, interleaved in one run.
set -uo pipefail
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 240 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*:Baselines*' > $OUT/runtime_tests.log 2>&1
echo "runtime gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure|Expected|Which is" $OUT/runtime_tests.log | head -40
TABLE=tables/h200.json MODES=offline,server NAME=lib-replay IMPLS=gemmforge-lib,gemmforge-lib-direct,gemmforge-lib-replay-all,cublaslt-autotune \
  LIMIT_S=300 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib[-a-z]* \(best\) \| cublaslt-autotune \| all|stopped|compiled first" | head -20
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
ls -la $OUT
