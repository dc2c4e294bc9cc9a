set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-carry
# The shipped table (call 3's) through the library on the whole grid, gpu and offline.
TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid-final IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=290 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(best\)|stopped" | head -20
ls -la $OUT
