# Session 30, call 8 (session 29's round5.sh again) (H200 only: the table is its): the shipped table (call 1's) through the
# runtime library on the whole grid in offline mode, both layouts, against cuBLASLt-autotune and
# cuBLAS (as session 22's call 2 for session 21's table); then the 24 held-out LLM shapes (tn,
# never tuned) in gpu, offline and server mode against the four baselines, with the time left.
source scripts/device_call.sh call8
pack() { tar czf $OUT/call8.tar.gz -C $OUT call8; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200: nothing run"; pack; rm -rf $R; exit 0; }
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-grid-offline LIB_SHAPES="--shapes grid" IMPLS=gemmforge-lib,cublaslt-autotune,cublas \
  MODES=offline LIMIT_S=${GRID_S:-400} scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -12
q; pack
left=$(( 565 - SECONDS )); [ $left -gt 130 ] && left=130
[ $left -ge 60 ] && OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" \
  MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
  LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublaslt-autotune +all|exit|stopped" | head -6
q; pack; rm -rf $R; ls -la $OUT
