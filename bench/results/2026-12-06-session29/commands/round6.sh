# Session 29, call 6 (any Hopper card; meant for the H100s this session kept getting): the H200's
# table on another GPU, allowed in with GEMMFORGE_TABLE_FROM_OTHER_GPU=1 (HandleOptions::
# table_from_other_gpu: its kernels only, every plan measured on this GPU). First the Runtime GPU
# tests (the new AnotherGpusTableServesMeasuredPlansWhenAllowed among them), then the library
# with that table on the 100-shape grid sample, both layouts, gpu mode, against cuBLASLt-autotune.
source scripts/device_call.sh call6
pack() { tar czf $OUT/call6.tar.gz -C $OUT call6; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*' > $R/runtime_tests.log 2>&1
echo "runtime tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure" $R/runtime_tests.log | head
q; pack
left=$(( ${CALL_S:-420} - SECONDS )); [ $left -gt 330 ] && left=330
GEMMFORGE_TABLE_FROM_OTHER_GPU=1 OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-sample-other-gpu \
  LIB_SHAPES="--shapes grid --sample 100" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$left \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublaslt|exit|stopped|compiled first" | head -12
q; pack; rm -rf $R; ls -la $OUT
