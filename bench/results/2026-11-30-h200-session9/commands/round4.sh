set -uo pipefail
export PYTHONUNBUFFERED=1
timeout 60 build/bin/gemmforge_gpu_tests --gtest_filter='Runtime.TheShippedTableServesItsShapes' > $OUT/shipped_table_test.log 2>&1; echo "shipped-table test exit $?"
TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=285 scripts/gpu_round.sh lib 2>&1 | tail -42
TABLE=tables/h200.json MODES=server NAME=lib-server-new IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=60 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -9
ls -la $OUT
