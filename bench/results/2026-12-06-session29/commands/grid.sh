# Session 29, call 2 (on the H200 call 1 got): with call 1's table (tables/h200.json): the
# Runtime GPU tests and the trace test, then the runtime library on the whole grid, gpu mode, both layouts, against
# cuBLASLt-autotune and cuBLAS (as session 24's call 2), then server mode on the 100-shape sample
# against cuBLASLt-autotune with the time the call has left. One archive, rewritten after each step.
source scripts/device_call.sh call2
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
# The table is the H200's, and the library refuses it on another card: nothing to measure there.
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200"; pack; rm -rf $R; exit 0; }
timeout -k 5 90 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:TraceLaunch*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/runtime_tests.log | head
q; pack
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-grid LIB_SHAPES="--shapes grid" IMPLS=${GRID_IMPLS:-gemmforge-lib,cublaslt-autotune,cublas} \
  MODES=gpu LIMIT_S=${GRID_S:-400} scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -12
q; pack
left=$(( 560 - SECONDS )); [ $left -gt 150 ] && left=150
[ $left -ge 60 ] && OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune \
  LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -10
q; pack; rm -rf $R; ls -la $OUT
