set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-carry
B=$GEMMFORGE_BIN
timeout 60 $B/gemmforge_gpu_tests --gtest_filter='Runtime.TheShippedTableServesItsShapes' > $OUT/shipped_table_test.log 2>&1; echo "shipped-table test exit $?"
TABLE=tables/h200.json LIB_SHAPES="--shapes grid" NAME=lib-grid IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=330 scripts/gpu_round.sh lib 2>&1 | tail -30
TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=100 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -9
LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=80 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (tn)" | head -6
ls -la $OUT
