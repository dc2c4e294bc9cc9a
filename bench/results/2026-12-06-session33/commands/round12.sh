# Session 33, call 12 (any Hopper card): the Runtime and C API GPU tests with staged plans of another GPU's table measured (and the staged test's
# capture check moved before its two-stream case (call 8: a new stream took a destroyed one's
# handle value, which the library took for the same stream, so the capture was not refused).
source scripts/device_call.sh call12
pack() { tar czf $OUT/call12.tar.gz -C $OUT call12; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is" $R/gpu_tests.log | head -30
q; pack; rm -rf $R; ls -la $OUT
