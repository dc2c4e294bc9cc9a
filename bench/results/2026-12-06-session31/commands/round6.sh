# Session 31, call 6 (any Hopper card): the GPU tests this session's code touches or relies on,
# with the kernels and table as they will land: the trace tests (the ablated and k-block stamped
# builds included), the Hopper kernel's correctness tests, the runtime library and its C API.
source scripts/device_call.sh call6
pack() { tar czf $OUT/call6.tar.gz -C $OUT call6; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 500 $B/gemmforge_gpu_tests --gtest_filter='TraceLaunch.*:Sm90Kernel.*:Runtime.*:CApi.*' > $R/gpu_tests.log 2>&1
echo "gemmforge_gpu_tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure|Expected|Which is" $R/gpu_tests.log | head -60
q; pack; rm -rf $R; ls -la $OUT
