# Session 16, call 5: the runtime and C API GPU tests with the final binaries (adaptive replays
# removed, the table-shape count fixed).
set -uo pipefail
tar xJf build/carry5.tar.xz
timeout 150 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $OUT/runtime_tests.log 2>&1
echo "runtime gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure|Expected|Which is" $OUT/runtime_tests.log | head -30
