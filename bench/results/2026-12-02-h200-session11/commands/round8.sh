# Session 11, call 8: larger cooperative tiles split K on the nine split-K problems of call 2
# (cuBLASLt's pick on 2048x256x8192 nn was a 128x160-class tile split in 5, call 7): 128x160,
# 128x192, 128x256, 256x128, 256x64, 64x256 one consumer; auto split count, both reductions.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
mkdir -p /tmp/kc && export GEMMFORGE_CACHE_DIR=/tmp/kc
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
timeout 200 $B/gemmforge bench --shape 128x1024x16384 --shape 256x1024x8192 --shape 2048x256x8192 --shape 512x256x16384 --shape 1024x256x16384 --shape 64x1024x16384 \
  --layout nn --impl gemmforge,cublaslt-autotune --configs $C/bigsplit-nn.json --splits auto --cluster-reduction both --pdl on \
  --mode gpu --out $OUT/bigsplit-nn > $OUT/bigsplit-nn.log 2>&1; echo "bigsplit-nn exit $?"
timeout 150 $B/gemmforge bench --shape 2048x128x8192 --shape 128x1024x16384 --shape 256x256x16384 \
  --layout tn --impl gemmforge,cublaslt-autotune --configs $C/bigsplit-tn.json --splits auto --cluster-reduction both --pdl on \
  --mode gpu --out $OUT/bigsplit-tn > $OUT/bigsplit-tn.log 2>&1; echo "bigsplit-tn exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call8.tar.gz . && rm -rf $OUT/* && mv /tmp/call8.tar.gz $OUT/ && ls -la $OUT
