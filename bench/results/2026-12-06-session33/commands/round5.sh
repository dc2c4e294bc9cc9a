# Session 33, call 5 (any Hopper card; the table of the card's model): the held-out output heads of
# real models whose vocabulary is not a multiple of 8 (shapes/heldout-unaligned.txt, tn, never
# tuned) through the library against the four baselines, gpu, offline and server mode.
source scripts/device_call.sh call5
pack() { tar czf $OUT/call5.tar.gz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"|dispatch_table' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/$card.json LIB_SHAPES="--shapes shapes/heldout-unaligned.txt" \
  MODES=gpu,offline,server NAME=lib-heldout-unaligned IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
  LIMIT_S=$(( 560 - SECONDS )) scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublaslt-autotune +all|exit|stopped" | head -6
q; pack; rm -rf $R; ls -la $OUT
