# Session 16, call 2: the runtime library with the shipped table (tables/h200.json, session 13's)
# and its calls replayed from graphs by default (HandleOptions::replay = except_pdl), on the
# whole grid, both layouts, gpu and offline modes, beside cuBLASLt-autotune and cuBLAS: session
# 14's call 3 with this session's binaries.
set -uo pipefail
tar xJf build/carry2.tar.xz
export GEMMFORGE_BIN=build/bin-ab
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
GEMMFORGE_BIN=build/bin-ab TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid IMPLS=gemmforge-lib,cublaslt-autotune,cublas \
  LIMIT_S=520 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(best\)|stopped|compiled first" | head -20
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
ls -la $OUT
