# Session 33, call 4 (any Hopper card; the table of the card's model): the Runtime GPU tests after
# the staged plan's detail named its kernel's source; the unaligned shapes in offline mode.
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"|dispatch_table' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is|staged" $R/gpu_tests.log | head -30
q; pack
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/$card.json NAME=staged-offline \
  LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned-wide.txt" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas MODES=offline LIMIT_S=$(( 560 - SECONDS )) scripts/gpu_round.sh lib 2>&1 | tail -3
q; pack; rm -rf $R; ls -la $OUT
