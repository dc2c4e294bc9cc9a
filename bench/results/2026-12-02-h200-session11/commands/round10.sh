# Session 11, call 10: the per-call fixed cost (time against K) of more tiles on 4096x4096xK tn,
# to see whether ping-pong (whose epilogue overlaps the other consumer's main loop) has a
# smaller one than the cooperative tiles (call 5: 128x256 cooperative +2.2 us over cuBLASLt).
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
for cfg in k-128x128pp-tn k-128x128-tn k-64x256pp-tn k-256x128-tn k-128x256s3-tn k-128x256-tn; do
  timeout 90 $B/gemmforge bench --shape 4096x4096x256 --shape 4096x4096x512 --shape 4096x4096x1024 --shape 4096x4096x2048 --layout tn \
    --impl gemmforge,cublaslt-autotune --configs $C/$cfg.json --splits 1 --pdl on --mode gpu --out $OUT/$cfg > $OUT/$cfg.log 2>&1; echo "$cfg exit $?"
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call10.tar.gz . && rm -rf $OUT/* && mv /tmp/call10.tar.gz $OUT/ && ls -la $OUT
