# Session 32, call 3 (an H100 only): with call 2's table shipped as tables/h100.json, the Runtime and
# C API GPU tests (the handle takes the table shipped for its model by itself); then the library on
# the 100-shape sample in offline and server mode against cuBLASLt-autotune and cuBLAS; then the 24
# held-out LLM shapes (tn, never tuned) in gpu, offline and server mode against the four baselines.
source scripts/device_call.sh call3
pack() { tar czf $OUT/call3.tar.gz -C $OUT call3; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
timeout -k 5 120 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|table" $R/runtime_tests.log | head
q; pack
left=$(( 400 - SECONDS )); [ $left -gt 200 ] && left=200
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-sample LIB_SHAPES="--shapes grid --sample 100" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=offline,server LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 \
  | grep -E "\(best\) +cublaslt-autotune +all|exit|stopped" | head -8
q; pack
left=$(( 520 - SECONDS )); [ $left -gt 130 ] && left=130
[ $left -ge 50 ] && OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=tables/h100.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" \
  MODES=gpu,offline,server NAME=lib-heldout IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch \
  LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) +cublaslt-autotune +all|exit|stopped" | head -6
q; pack; rm -rf $R; ls -la $OUT
