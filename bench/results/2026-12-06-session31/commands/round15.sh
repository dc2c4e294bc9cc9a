# Session 31, call 15 (any Hopper card): after the review's refactor (one ablation enumeration,
# the ablation tests inside the epilogue's helpers), the trace and Hopper kernel GPU tests again.
source scripts/device_call.sh call15
pack() { tar czf $OUT/call15.tar.gz -C $OUT call15; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 400 $B/gemmforge_gpu_tests --gtest_filter='TraceLaunch.*:Sm90Kernel.PassesTheGateOnGridAndOddShapes:Runtime.TheShippedTableServesItsShapes' > $R/gpu_tests.log 2>&1
echo "gemmforge_gpu_tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure" $R/gpu_tests.log | head -20
q; pack; rm -rf $R; ls -la $OUT
