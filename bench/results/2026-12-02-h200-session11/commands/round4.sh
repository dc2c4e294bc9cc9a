# Session 11, call 4: deeper pipelines on split-K problems. The space's stage axis stops at 8
# (the rules allow 12); on split-K problems our 64x64 s8 kernel waited for data 23% of its
# samples (call 1) while moving 44 B/clk per SM, half what L2 gives: bytes in flight, not
# bandwidth. Same tiles with more stages, auto split count, against cuBLASLt-autotune.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
timeout 200 $B/gemmforge bench --shape 64x1024x16384 --shape 128x1024x16384 --shape 256x1024x8192 --shape 512x256x16384 --shape 2048x256x8192 --shape 1024x256x16384 \
  --layout nn --impl gemmforge,cublaslt-autotune --configs $C/stages-nn.json --splits auto --pdl on --mode gpu --out $OUT/stages-nn > $OUT/stages-nn.log 2>&1; echo "stages-nn exit $?"
timeout 150 $B/gemmforge bench --shape 2048x128x8192 --shape 128x1024x16384 --shape 256x256x16384 \
  --layout tn --impl gemmforge,cublaslt-autotune --configs $C/stages-tn.json --splits auto --pdl on --mode gpu --out $OUT/stages-tn > $OUT/stages-tn.log 2>&1; echo "stages-tn exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call4.tar.gz . && rm -rf $OUT/* && mv /tmp/call4.tar.gz $OUT/ && ls -la $OUT
