# Session 42, calls 5-7: run inline on the warm H100 after call 4 (the device tool's command, as
# given; the same tree and build/carry.tar.xz as calls 3-4). The library with the new
# tables/h100.json against cuBLASLt-autotune, both layouts.
# call 5: server mode, the 100-shape grid sample
tar xJf build/carry.tar.xz && mkdir -p $OUT/call5 && OUT=$OUT/call5 GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc TABLE=tables/h100.json NAME=lib-server MODES=server IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=220 scripts/gpu_round.sh lib 2>&1 | tail -12
# call 6: the 24 held-out LLM shapes, gpu, offline and server
tar xJf build/carry.tar.xz && mkdir -p $OUT/call6 && OUT=$OUT/call6 GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc TABLE=tables/h100.json NAME=lib-heldout LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=150 scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\).*all|stage"
# call 7: offline mode, the 100-shape grid sample
tar xJf build/carry.tar.xz && mkdir -p $OUT/call7 && OUT=$OUT/call7 GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc TABLE=tables/h100.json NAME=lib-offline MODES=offline IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=150 scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\)|stage"
