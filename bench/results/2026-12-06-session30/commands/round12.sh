# Session 30, call 12 (any Hopper card; no H200 came this session): the H200's shipped table on an
# H100, allowed in (GEMMFORGE_TABLE_FROM_OTHER_GPU=1: its kernels only, every plan measured on
# this GPU), in offline mode on the 100-shape grid sample (both layouts, against cuBLASLt-autotune
# and cuBLAS), then the 24 held-out LLM shapes (tn, never tuned) in gpu, offline and server mode.
source scripts/device_call.sh call12
pack() { tar czf $OUT/call12.tar.gz -C $OUT call12; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
GEMMFORGE_TABLE_FROM_OTHER_GPU=1 OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-sample-offline \
  LIB_SHAPES="--shapes grid --sample 100" IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=offline LIMIT_S=250 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -12
q; pack
left=$(( 520 - SECONDS )); [ $left -gt 200 ] && left=200
[ $left -ge 60 ] && GEMMFORGE_TABLE_FROM_OTHER_GPU=1 OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/h200.json \
  LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublas LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublas|exit|stopped" | head -8
q; pack; rm -rf $R; ls -la $OUT
