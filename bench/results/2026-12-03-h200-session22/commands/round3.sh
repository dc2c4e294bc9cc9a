# Session 22, call 3: every GPU test binary with this session's build (the TMA ceilings now
# encode their tensor maps through the JIT's driver wrapper): gemmforge_gpu_tests (kernels,
# split-K, runtime, C API, baselines, ceilings, trace) and gemmforge_tune_gpu_tests (planted bad
# kernels, resume). Logs packed into one archive.
set -uo pipefail
tar xJf build/carry3.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call3 && mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $R/clocks-start.csv
timeout 330 build/bin-ab/gemmforge_gpu_tests > $R/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/gpu_tests.log | head -20
timeout 200 build/bin-ab/gemmforge_tune_gpu_tests > $R/tune_gpu_tests.log 2>&1; echo "tune gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure" $R/tune_gpu_tests.log | head -20
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $R/clocks-end.csv
tar czf $OUT/call3.tar.gz -C /tmp call3 && ls -la $OUT
