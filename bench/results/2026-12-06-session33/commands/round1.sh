# Session 33, call 1 (any Hopper card). (1) The GPU tests of what session 32 changed after its last
# GPU run (choose_table, env's dispatch_table, the shipped-table test's refusal branch): Runtime*,
# CApi*, and the Hopper kernel's gate (Sm90Kernel*). (2) How cuBLASLt and the library do on shapes
# whose strides TMA cannot take (K or N not a multiple of 8) against their aligned neighbours, gpu
# mode, both layouts. (2) runs on an H100 only; (3) on an H200 only: session 30's round8.sh (the offline grid and the held-out
# shapes with tables/h200.json), with the time left.
source scripts/device_call.sh call1
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"|dispatch_table' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
timeout -k 5 240 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*:Sm90Kernel*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|refus" $R/gpu_tests.log | head
q; pack
[ $card = h100 ] && OUT=$R GEMMFORGE_BIN=$B TABLE=tables/$card.json NAME=unaligned \
  LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned.txt" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas MODES=gpu LIMIT_S=150 scripts/gpu_round.sh lib 2>&1 | tail -4
q; pack
if [ $card = h200 ]; then
  OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-grid-offline LIB_SHAPES="--shapes grid" IMPLS=gemmforge-lib,cublaslt-autotune,cublas \
    MODES=offline LIMIT_S=$(( 560 - SECONDS - 110 )) scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -12
  q; pack
  left=$(( 570 - SECONDS )); [ $left -gt 110 ] && left=110
  [ $left -ge 60 ] && OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" \
    MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
    LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublaslt-autotune +all|exit|stopped" | head -6
fi
q; pack; rm -rf $R; ls -la $OUT
