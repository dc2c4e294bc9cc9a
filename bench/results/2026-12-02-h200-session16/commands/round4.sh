# Session 16, call 4: the runtime GPU tests (replays under Replay::all and ::adaptive, a PDL
# entry among them), then the 100-shape grid sample, both layouts, offline and server: the
# library's default replays (except_pdl), the adaptive ones (PDL kernels' calls replayed too when
# their stream is idle) and none, beside cuBLASLt-autotune, interleaved in one run.
set -uo pipefail
tar xJf build/carry4.tar.xz
export GEMMFORGE_BIN=build/bin-ab
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 120 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $OUT/runtime_tests.log 2>&1
echo "runtime gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|Expected|Which is" $OUT/runtime_tests.log | head -30
TABLE=tables/h200.json MODES=offline,server NAME=lib-adaptive IMPLS=gemmforge-lib,gemmforge-lib-adaptive,gemmforge-lib-direct,cublaslt-autotune \
  LIMIT_S=260 scripts/gpu_round.sh lib 2>&1 | grep -E "^\s*gemmforge-lib[-a-z]* \(best\) +cublaslt-autotune +all|stopped" | head -20
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
ls -la $OUT
