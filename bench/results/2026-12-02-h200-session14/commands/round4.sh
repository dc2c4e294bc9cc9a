# Session 14, call 4: the shipped table in server mode on the 100-shape grid sample and on the 24
# held-out LLM shapes (gpu, offline, server) against all four baselines; then every GPU test of
# the tuner (planted crashing, hanging and faulting kernels; resume; carried results; --prior).
set -uo pipefail
tar xJf build/carry3.tar.xz
export GEMMFORGE_BIN=build/bin-ab
TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=170 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(best\)|stopped" | head -9
LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=120 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\)|stopped" | head -6
timeout 200 build/bin-ab/gemmforge_tune_gpu_tests > $OUT/tune_gpu_tests.log 2>&1; echo "tune gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|OK \]|FAILED" $OUT/tune_gpu_tests.log | head -30
ls -la $OUT
