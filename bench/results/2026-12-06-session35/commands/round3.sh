# Session 35, call 3 (either card). (1) Every skinny grid shape (96, both layouts): the tune's
# winners against the cluster tiles of skinny-clusters.json, a bench sweep (gated, finalists
# re-timed beside cuBLASLt-autotune). (2) On an H100: the H100 table's tune (session 32's
# database, call4) goes on for the skinny problems with those tiles in its space
# (tune-skinny.json) and the sweep's fastest as each problem's prior, 3 more measurements each;
# then the library on the skinny shapes with the shipped table and with the new one, gpu mode.
# On an H200: session 34's round5 (staging's first run there) after the sweep.
source scripts/device_call.sh call3
C=bench/results/2026-12-06-session35/commands
pack() { tar cJf $OUT/call3.tar.xz -C $OUT call3; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 140 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/skinny-clusters.json \
  --shapes shapes/skinny.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 4 \
  --time-limit 120 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; grep -h "gemmforge (best)\|gemmforge (nn)\|gemmforge (tn)" $R/sweep/summary.md | head -3
q; pack
if ! grep -q '"gpu": "NVIDIA H100' $R/env.json; then
  echo "not an H100: session 34's round5"; pack; rm -rf $R
  bash bench/results/2026-12-06-session34/commands/round5.sh; exit 0
fi
mkdir -p /tmp/s32 && tar xzf bench/results/2026-12-06-session32/call4.tar.gz -C /tmp/s32
OUT=$R GEMMFORGE_BIN=$B KEEP=1 DB_CSV=/tmp/s32/call4/tune/db CONFIGS=$C/tune-skinny.json LOG=tune-skinny \
  TUNE_SHAPES="--shapes shapes/skinny.txt" PRIOR="tables/h100.json $R/sweep" BUDGET=6 \
  TUNE_ARGS="--seeds 2 --neighbour-seeds 2 --budget-under 32:9" \
  TIME_LIMIT_S=170 LIMIT_S=230 scripts/gpu_round.sh tune 2>&1 | grep -E "all|skinny|problems:|wrote|exit" | head -12
rm -f $R/tune/tune.sqlite*; q; pack
for v in new old; do
  table=$R/tune/table.json; [ $v = old ] && table=tables/h100.json
  left=$(( 575 - SECONDS )); [ $left -gt 95 ] && left=95
  [ -f $table ] && [ $left -ge 40 ] && OUT=$R GEMMFORGE_BIN=$B TABLE=$table NAME=lib-skinny-$v \
    LIB_SHAPES="--shapes shapes/skinny.txt" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$left \
    scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublaslt-autotune|exit|stopped" | head -4
  q; pack
done
pack; rm -rf $R; ls -la $OUT
