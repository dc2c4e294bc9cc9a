# Session 22, call 2: the shipped table (session 21's) through the runtime library on the whole
# grid in offline mode, both layouts, against cuBLASLt-autotune and cuBLAS; then the 24 held-out
# LLM shapes (tn, never tuned) in gpu, offline and server mode against the four baselines.
# Everything the call writes is packed into one archive.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
export GEMMFORGE_BIN=build/bin-ab GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call2 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
OUT=$R TABLE=tables/h200.json NAME=lib-grid-offline LIB_SHAPES="--shapes grid" IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=offline LIMIT_S=380 \
  scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(best\) \| cublaslt-autotune \| |stopped|compiled first" | head -12
q
OUT=$R LAYOUT=tn TABLE=tables/h200.json LIB_SHAPES="--shapes shapes/heldout-llm.txt" MODES=gpu,offline,server NAME=lib-heldout \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch LIMIT_S=130 scripts/gpu_round.sh lib 2>&1 | grep -E "gemmforge-lib \(tn\) \| cublaslt-autotune \| all|stopped" | head -6
q
tar czf $OUT/call2.tar.gz -C /tmp call2 && ls -la $OUT
