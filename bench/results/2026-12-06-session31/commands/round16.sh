# Session 31, call 16 (H200 only: the table is its; ~6 device minutes were left): the 24 held-out
# LLM shapes (tn, never tuned) through the runtime library with the shipped table, in gpu,
# offline and server mode against the four baselines (session 30's round8.sh, second half).
source scripts/device_call.sh call16
pack() { tar czf $OUT/call16.tar.gz -C $OUT call16; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200: nothing run"; pack; rm -rf $R; exit 0; }
OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" \
  MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
  LIMIT_S=230 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublaslt-autotune +all|exit|stopped" | head -6
q; pack; rm -rf $R; ls -la $OUT
