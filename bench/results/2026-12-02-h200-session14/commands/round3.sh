# Session 14, call 3: the runtime library with the shipped table (tables/h200.json, session 13's)
# on the whole grid, both layouts, gpu and offline modes, beside cuBLASLt-autotune and cuBLAS
# (scripts/gpu_round.sh lib compiles the table's kernels first, outside the bench's limit).
set -uo pipefail
tar xJf build/carry3.tar.xz
export GEMMFORGE_BIN=build/bin-ab
GEMMFORGE_BIN=build/bin-ab TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid IMPLS=gemmforge-lib,cublaslt-autotune,cublas \
  LIMIT_S=440 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(best\)|stopped|compiled first" | head -20
ls -la $OUT
