# Session 21, call 5: the runtime library on the whole grid with call 4's table (now
# tables/h200.json), gpu mode, both layouts, against cuBLASLt-autotune and cuBLAS, for what the
# time limit allows (the bench's --time-limit: the shapes it reached).
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call5 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
OUT=$R TABLE=tables/h200.json NAME=lib-grid LIB_SHAPES="--shapes grid" IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=gpu LIMIT_S=420 \
  scripts/gpu_round.sh lib 2>&1 | tail -40
q
tar czf $OUT/call5.tar.gz -C /tmp call5 && ls -la $OUT
