# Session 12, call 5: issue 3's large-class benchmark with this session's bench (every passing
# config of a heavy shape timed at steady state): 17 large shapes (large-latin.txt: 16 of the 64
# covering every K four times, and 8192^3), both layouts, 14 configs (large8.json), against
# cuBLASLt-autotune and cuBLAS, gpu and offline; then 8192^3 twice more (gpu) for its spread.
# First the BenchSweep GPU test with this bench.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
S=bench/results/2026-12-02-h200-session12
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
timeout 60 $B/gemmforge_gpu_tests --gtest_filter='BenchSweep*' > $OUT/bench_sweep_test.log 2>&1; echo "BenchSweep test exit $?"
$B/gemmforge kernels --configs $S/commands/large8.json --layout both --compile > $OUT/compile.log 2>&1; tail -1 $OUT/compile.log
timeout 330 $B/gemmforge bench --shapes $S/large-latin.txt --layout both --impl gemmforge,cublaslt-autotune,cublas \
  --configs $S/commands/large8.json --pdl on --mode gpu,offline --time-limit 310 --out $OUT/large > $OUT/large.log 2>&1
echo "large exit $? $(date +%T)"; grep -v "^\[" $OUT/large.log | tail -25
for rep in 2 3; do
  timeout 60 $B/gemmforge bench --shape 8192x8192x8192 --layout both --impl gemmforge,cublaslt-autotune,cublas \
    --configs $S/commands/large8.json --pdl on --mode gpu --out $OUT/cube-$rep > $OUT/cube-$rep.log 2>&1; echo "8192^3 rep $rep exit $?"
  grep -E "^8192,8192,8192" $OUT/cube-$rep/results.csv | cut -d, -f5,7,11,18-20
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call5.tar.gz . && rm -rf $OUT/* && mv /tmp/call5.tar.gz $OUT/ && ls -la $OUT
