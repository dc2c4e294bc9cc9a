# Session 32, call 5 (an H100 only): the shipped tables/h100.json (call 4's table) through the
# runtime library on the whole grid in offline mode, both layouts, against cuBLASLt-autotune and
# cuBLAS, as far as the device time left allows (the bench goes in order of FLOPs and writes what
# it measured when its time limit comes).
source scripts/device_call.sh call5
pack() { tar czf $OUT/call5.tar.gz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-grid-offline LIB_SHAPES="--shapes grid" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=offline LIMIT_S=${GRID_S:-330} scripts/gpu_round.sh lib 2>&1 \
  | grep -E "\(best\) +cublas|exit|stopped|compiled" | head -14
q; pack; rm -rf $R; ls -la $OUT
