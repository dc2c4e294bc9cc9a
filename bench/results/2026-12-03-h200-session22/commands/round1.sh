# Session 22, call 1: the reduction probe (reduction_probe.cu: stores to a slot per part against
# red.global.add into one f32 tile, 128 CTAs, 4-32 parts per tile); then the shipped table
# (session 21's, tables/h200.json) in server mode on the 100-shape grid sample, both layouts,
# against the four baselines. Everything the call writes is packed into one archive.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call1 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
timeout 60 build/bin-ab/reduction_probe > $R/reduction_probe.csv 2> $R/reduction_probe.err; echo "probe exit $?"
cat $R/reduction_probe.csv; cat $R/reduction_probe.err
q
OUT=$R TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=260 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) \| cublaslt-autotune \| |stopped|compiled first" | head -20
q
tar czf $OUT/call1.tar.gz -C /tmp call1 && ls -la $OUT
