# Session 11, call 5: time against K for one config and one split count, to part a call into a
# fixed cost (the intercept: launch, prologue, reduction, epilogue) and a per-k-block rate (the
# slope), ours and cuBLASLt-autotune's, on the shapes where small tiles lose.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
ks() { for k in "$@"; do printf -- "--shape %s " "$k"; done; }
run() {  # name layout configs splits shapes...
  local name=$1 layout=$2 configs=$3 splits=$4; shift 4
  timeout 120 $B/gemmforge bench $(ks "$@") --layout $layout --impl gemmforge,cublaslt-autotune --configs $configs --splits $splits \
    --pdl on --mode gpu --out $OUT/$name > $OUT/$name.log 2>&1; echo "$name exit $?"
}
run a-64x64-k8 nn $C/k-64x64-nn.json 8 64x1024x1024 64x1024x2048 64x1024x4096 64x1024x8192 64x1024x16384
run b-128x64-k8 nn $C/k-128x64-nn.json 8 128x1024x1024 128x1024x2048 128x1024x4096 128x1024x8192 128x1024x16384
run c-64x64 nn $C/k-64x64-nn.json 1 2048x256x512 2048x256x1024 2048x256x2048 2048x256x4096 2048x256x8192
run d-128x256 tn $C/k-128x256-tn.json 1 4096x4096x256 4096x4096x512 4096x4096x1024 4096x4096x2048
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cd $OUT && tar czf /tmp/call5.tar.gz . && rm -rf $OUT/* && mv /tmp/call5.tar.gz $OUT/ && ls -la $OUT
