# Session 33, call 10 (any Hopper card; the table of the card's model): staged calls measured at
# plan time (measure_new_shapes: each staged kernel candidate timed and gated as a staged call,
# copies included, against cuBLASLt's algorithms on the operands as they are). The Runtime GPU
# tests; then the 21 unaligned shapes, gpu mode, both layouts: the library by default and with
# plans measured, against cuBLASLt-autotune.
source scripts/device_call.sh call10
pack() { tar czf $OUT/call10.tar.gz -C $OUT call10; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is" $R/gpu_tests.log | head -30
q; pack
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/$card.json NAME=staged-measured \
  LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned-wide.txt" \
  IMPLS=gemmforge-lib,gemmforge-lib-measured,cublaslt-autotune MODES=gpu LIMIT_S=$(( 560 - SECONDS )) scripts/gpu_round.sh lib 2>&1 | tail -3
q; pack; rm -rf $R; ls -la $OUT
