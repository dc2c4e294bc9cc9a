# Session 12, call 8: every GPU test and the tuner's GPU tests with the session's final code
# (the bench's and tuner's heavy finals, db carry; the kernels unchanged). Test binaries only:
# with every binary the tree is over the carry limit.
set -uo pipefail
B=build/bin-tests
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
timeout 200 $B/gemmforge_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
timeout 90 $B/gemmforge_tune_gpu_tests > $OUT/tune_gpu_tests.log 2>&1; echo "tune gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/tune_gpu_tests.log | head
cd $OUT && tar czf /tmp/call8.tar.gz . && rm -rf $OUT/* && mv /tmp/call8.tar.gz $OUT/ && ls -la $OUT
