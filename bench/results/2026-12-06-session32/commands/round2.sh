# Session 32, call 2 (an H100 only): the tune of call 1 resumed from its database (call1.tar.gz:
# call1/tune/db) with the same options, to decide the problems its time limit left; then the
# runtime library with the table it wrote on the whole grid, gpu mode, both layouts, against
# cuBLASLt-autotune and cuBLAS (as session 29's call 2 on the H200).
source scripts/device_call.sh call2
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
mkdir -p /tmp/call1 && tar xzf bench/results/2026-12-06-session32/call1.tar.gz -C /tmp/call1
OUT=$R GEMMFORGE_BIN=$B KEEP=1 DB_CSV=/tmp/call1/call1/tune/db CONFIGS=bench/configs/tune-both.json LOG=tune \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json BUDGET=3 \
  TUNE_ARGS="--seeds 0 --neighbour-seeds 2 --budget-under 32:6" \
  TIME_LIMIT_S=150 LIMIT_S=200 scripts/gpu_round.sh tune 2>&1 | tail -18
rm -f $R/tune/tune.sqlite*
q; pack
left=$(( 570 - SECONDS )); echo "library grid run: ${left} s"
[ -f $R/tune/table.json ] && OUT=$R GEMMFORGE_BIN=$B TABLE=$R/tune/table.json NAME=lib-grid LIB_SHAPES="--shapes grid" \
  IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=gpu LIMIT_S=$left scripts/gpu_round.sh lib 2>&1 \
  | grep -E "\(best\) +cublas|exit|stopped|compiled" | head -16
q; pack; rm -rf $R; ls -la $OUT
