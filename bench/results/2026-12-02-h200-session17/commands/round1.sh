# Session 17, call 1: the runtime GPU tests (the replay test checks the new default on a PDL
# entry), then the 100-shape grid sample, both layouts, offline and server modes: the library with
# PDL kernels' calls replayed unless back to back (gemmforge-lib, the new default), with them never
# replayed (gemmforge-lib-except-pdl, session 16's default), with no replays (-direct), and the four
# baselines, interleaved in one run.
set -uo pipefail
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 240 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*:Baselines*' > $OUT/runtime_tests.log 2>&1
echo "runtime gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|Expected|Which is" $OUT/runtime_tests.log | head -30
TABLE=tables/h200.json MODES=offline,server NAME=lib-sample \
  IMPLS=gemmforge-lib,gemmforge-lib-except-pdl,gemmforge-lib-direct,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
  LIMIT_S=420 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib[-a-z]* \(best\) \| cublaslt-autotune \| all|stopped|compiled first" | head -20
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
ls -la $OUT
