# Session 12, call 6: issue 3's large-class benchmark on all 64 large shapes (shapes/large.txt),
# both layouts, the 14 configs of large8.json, every passing config of a heavy shape timed at
# steady state, against cuBLASLt-autotune and cuBLAS, gpu and offline.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
S=bench/results/2026-12-02-h200-session12
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
$B/gemmforge kernels --configs $S/commands/large8.json --layout both --compile > $OUT/compile.log 2>&1; tail -1 $OUT/compile.log
timeout 520 $B/gemmforge bench --shapes shapes/large.txt --layout both --impl gemmforge,cublaslt-autotune,cublas \
  --configs $S/commands/large8.json --pdl on --mode gpu,offline --time-limit 490 --out $OUT/large64 > $OUT/large64.log 2>&1
echo "large64 exit $? $(date +%T)"; grep -v "^\[" $OUT/large64.log | tail -25
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call6.tar.gz . && rm -rf $OUT/* && mv /tmp/call6.tar.gz $OUT/ && ls -la $OUT
