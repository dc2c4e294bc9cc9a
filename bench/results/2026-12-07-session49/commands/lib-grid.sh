# Session 49, call 2 (either card; CALL_S seconds, default 570): the library with this folder's
# table-<card>.json (call 1's tune/table.json; removed after call 2 ran, as it became
# tables/h100.json) or else tables/<card>.json on the whole
# grid, gpu mode, both layouts, against cuBLASLt-autotune (issue 5's figure), then every test of
# gemmforge_gpu_tests in eight gtest shards for what the call has left (session 48's round2.sh,
# never run). Carries build/carry.tar.xz; `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
TABLE=bench/results/2026-12-07-session49/commands/table-$card.json  # a tune's table from call 1
[ -f $TABLE ] || TABLE=tables/$card.json
echo "library ($card, $TABLE) on the grid"
env OUT=$R GEMMFORGE_BIN=$B TABLE=$TABLE NAME=lib-grid LIB_SHAPES="--shapes grid" \
  IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=${LIB_S:-330} scripts/gpu_round.sh lib 2>&1 | tail -30
echo "library done ${SECONDS}s"
SHARD_S=$(( ${CALL_S:-570} - SECONDS - 25 ))
if [ $SHARD_S -gt 60 ]; then
  echo "gpu tests, shards of ${SHARD_S}s"
  for i in 0 1 2 3 4 5 6 7; do
    GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout $SHARD_S $B/gemmforge_gpu_tests > $R/gpu-tests-$i.log 2>&1 &
  done
  wait; echo "gpu tests done ${SECONDS}s"
  cat $R/gpu-tests-*.log | grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' | awk '{print $1, $2, $3}' | sort | uniq -c | head -5
  grep -hE '^\[ +(FAILED|SKIPPED) +\] [A-Z]' $R/gpu-tests-*.log | sort -u | head -20
  grep -hE '^\[  (PASSED|FAILED)' $R/gpu-tests-*.log
fi
q; pack
rm -rf $R; ls -la $OUT
