# Session 33, call 8 (any Hopper card; the table of the card's model). After the review: staged copies in one growing buffer per stream, refusals before any copy is enqueued, no staging with another GPU's table, a two-stream test. The Runtime
# and C API GPU tests (the new staged test among them), then the library on shapes whose K or N
# is not a multiple of 8, and aligned neighbours, against the four baselines, gpu mode, both layouts
# (cublaslt-heuristic is what the library served on these shapes before staging).
source scripts/device_call.sh call8
pack() { tar czf $OUT/call8.tar.gz -C $OUT call8; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"|dispatch_table' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is|staged" $R/gpu_tests.log | head -30
q; pack
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/$card.json NAME=staged \
  LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned-wide.txt" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas MODES=gpu LIMIT_S=$(( 560 - SECONDS )) scripts/gpu_round.sh lib 2>&1 | tail -3
q; pack; rm -rf $R; ls -la $OUT
