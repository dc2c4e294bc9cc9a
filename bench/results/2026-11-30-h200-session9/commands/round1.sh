set -uo pipefail
export PYTHONUNBUFFERED=1
# A/B: main (binary + kernels of 9641b12) against per-warp-epilogue (the branch's binary + kernels).
ab() {  # $1 tag, then env
  for side in old new; do
    if [ $side = new ]; then export GEMMFORGE_BIN=build/pw-bin GEMMFORGE_DATA_DIR=$PWD/build/pw-data; else unset GEMMFORGE_BIN GEMMFORGE_DATA_DIR; fi
    NAME=$1-$side scripts/gpu_round.sh class 2>&1 | tail -4
  done
  unset GEMMFORGE_BIN GEMMFORGE_DATA_DIR
}
SHAPES_FILE=shapes/small-k.txt CONFIGS=bench/configs/small-k-whole.json PDL=on MODES=gpu LIMIT_S=120 ab small-k
SHAPES_FILE=shapes/table-top.txt CONFIGS=bench/configs/table-top.json PDL=on MODES=gpu LIMIT_S=120 ab table-top
# The branch's kernels under the GPU tests that launch them.
GEMMFORGE_DATA_DIR=$PWD/build/pw-data timeout 150 build/pw-bin/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*:Runtime*:*Epilogue*:*TmaStore*' > $OUT/pw_gpu_tests.log 2>&1
echo "pw gpu tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/pw_gpu_tests.log | head
# The shipped table in server mode (100-shape sample) and on the held-out shapes.
TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas LIMIT_S=150 scripts/gpu_round.sh lib 2>&1 | tail -25
LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas LIMIT_S=100 scripts/gpu_round.sh lib 2>&1 | tail -25
ls -la $OUT
