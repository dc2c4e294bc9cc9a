# Session 37, call 4 (any Hopper card): the GPU tests call 2 could not finish. Its first test
# hung on the 128x128 k-split config with 2 stages (one stage per consumer: each waited on its
# own stage, which it frees only after that wait); the rules now ask k-split for 4 stages or
# more, and the test's config has 4. The three Sm90Kernel tests with k-split configs, then the
# TraceLaunch, Runtime and C API tests (the tables re-keyed by db carry).
source scripts/device_call.sh call4
pack() { tar cJf $OUT/call4.tar.xz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 ${TESTS_S:-170} $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.PassesTheGateOnGridAndOddShapes:Sm90Kernel.SplitKAndStreamKPassTheGate:Sm90Kernel.SplitKSummedInsideAClusterPassesTheGate:TraceLaunch*:Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED  \]|tests ran" $R/gpu_tests.log | head -30
q; pack; rm -rf $R; ls -la $OUT
