# Session 24, call 2: the runtime library with call 1's table (now tables/h200.json) on the whole
# grid, gpu mode, both layouts, against cuBLASLt-autotune and cuBLAS; then server mode on the
# 100-shape sample against cuBLASLt-autotune (the lib stage's default sample), as time allows.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call2 && mkdir -p $R
t0=$(date +%s)
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
OUT=$R TABLE=tables/h200.json NAME=lib-grid LIB_SHAPES="--shapes grid" IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=gpu LIMIT_S=400 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -12
q
# Server mode only with the time the call has left (10 min a call): at most 150 s, none under 60.
left=$(( 560 - ($(date +%s) - t0) )); [ $left -gt 150 ] && left=150
[ $left -ge 60 ] && OUT=$R TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=$left \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -10
q
tar czf $OUT/call2.tar.gz -C /tmp call2 && ls -la $OUT
