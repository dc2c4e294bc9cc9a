# Session 11, call 11: the lib stage with its new first step (every kernel of the table compiled
# on all cores before the timed run: gemmforge kernels --table TABLE --compile), on two shapes.
set -uo pipefail
export GEMMFORGE_BIN=build/bin-carry
TABLE=tables/h200.json LIB_SHAPES="--shape 4096x4096x1024 --shape 64x64x64" MODES=gpu NAME=lib-smoke \
  IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=60 scripts/gpu_round.sh lib 2>&1 | tail -12
"$GEMMFORGE_BIN/gemmforge" kernels --table tables/h200.json --compile 2>&1 | tail -1
ls -la $OUT
