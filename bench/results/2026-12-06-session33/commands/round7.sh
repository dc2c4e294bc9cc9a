# Session 33, call 7 (an H100 only: its table). The dispatch code changed for every call
# (cuBLASLt's plans take row strides; its run path was split so staged calls share it): the library
# on the 100-shape sample, gpu mode, both layouts, against cuBLASLt-autotune, to set beside session
# 32's call 2 on the same shapes (bench/results/2026-12-06-session32/call2.tar.gz, the same table).
source scripts/device_call.sh call7
pack() { tar czf $OUT/call7.tar.gz -C $OUT call7; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-sample LIB_SHAPES="--shapes grid --sample 100" \
  IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=300 scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublaslt-autotune +all|exit|stopped" | head -4
q; pack; rm -rf $R; ls -la $OUT
