# Session 32, call 4 (an H100 only): the H100's tune (call 2's database, call2/tune/db) goes on
# where a larger budget pays and costs little device time: the 128 tiny problems with 16
# measurements each and two builds for the shape (--specialize 2), then the 128 tall-K problems
# with 16 each and their split finalists also built with parts apart and pushed in-cluster sums
# (as the H200's tune had). Then the library with the resulting table on the tiny and tall-K
# shapes, gpu and offline mode, against cuBLASLt-autotune and cuBLAS.
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
mkdir -p /tmp/call2 && tar xzf bench/results/2026-12-06-session32/call2.tar.gz -C /tmp/call2
tune() {  # $1 log name, $2 shapes file, $3 extra options, $4 time limit
  OUT=$R GEMMFORGE_BIN=$B KEEP=1 DB_CSV=/tmp/call2/call2/tune/db CONFIGS=bench/configs/tune-both.json LOG=$1 \
    TUNE_SHAPES="--shapes $2" PRIOR=tables/h200.json BUDGET=3 \
    TUNE_ARGS="--seeds 2 --neighbour-seeds 2 --budget-under 32:16 $3" \
    TIME_LIMIT_S=$4 LIMIT_S=$(($4 + 60)) scripts/gpu_round.sh tune 2>&1 | grep -E "all|problems:|wrote|exit" | head -8
}
tune tune-tiny shapes/tiny.txt "--specialize 2" 110
tune tune-tallk shapes/tall-k.txt "--parts-apart --cluster-push" 130
rm -f $R/tune/tune.sqlite*
q; pack
cat shapes/tiny.txt shapes/tall-k.txt | grep -v '^#' > /tmp/tiny-tallk.txt
left=$(( 540 - SECONDS )); [ $left -gt 120 ] && left=120
[ -f $R/tune/table.json ] && [ $left -ge 40 ] && OUT=$R GEMMFORGE_BIN=$B TABLE=$R/tune/table.json NAME=lib-tiny-tallk \
  LIB_SHAPES="--shapes /tmp/tiny-tallk.txt" IMPLS=gemmforge-lib,cublaslt-autotune,cublas MODES=gpu,offline LIMIT_S=$left \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublaslt-autotune|exit|stopped" | head -12
q; pack; rm -rf $R; ls -la $OUT
