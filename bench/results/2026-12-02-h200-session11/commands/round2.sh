# Session 11, call 2: split-K shapes (cuBLASLt splits K there; our best was 0.54-0.8x): every
# tile of a broad set x split counts 1-16 x the two reductions, to see what our kernels can do
# there when the search is not the limit. Kernels as committed (session 10's).
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
mkdir -p /tmp/kc && export GEMMFORGE_CACHE_DIR=/tmp/kc
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
timeout 250 $B/gemmforge bench --shape 128x1024x16384 --shape 256x1024x8192 --shape 2048x256x8192 --shape 512x256x16384 --shape 1024x256x16384 --shape 64x1024x16384 \
  --layout nn --impl gemmforge,cublaslt-autotune --configs $C/split-nn.json --splits 1,2,4,8,16 --cluster-reduction both --pdl on \
  --mode gpu --out $OUT/split-nn > $OUT/split-nn.log 2>&1; echo "split-nn exit $?"
timeout 150 $B/gemmforge bench --shape 2048x128x8192 --shape 128x1024x16384 --shape 256x256x16384 \
  --layout tn --impl gemmforge,cublaslt-autotune --configs $C/split-tn.json --splits 1,2,4,8,16 --cluster-reduction both --pdl on \
  --mode gpu --out $OUT/split-tn > $OUT/split-tn.log 2>&1; echo "split-tn exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
tail -12 $OUT/split-nn.log; tail -8 $OUT/split-tn.log
cd $OUT && tar czf /tmp/call2.tar.gz . && rm -rf $OUT/* && mv /tmp/call2.tar.gz $OUT/ && ls -la $OUT
