# Session 48, call 2 (either card, ~5 min): every test of gemmforge_gpu_tests at this tree (kernel
# source 8fec73c0, the host clamping a launch's raster group to the grid), in eight gtest shards at
# once, each under SHARD_S seconds (default 330). Carries build/carry.tar.xz; `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
SHARD_S=${SHARD_S:-330}  # each shard's limit (lower it as the device time left shrinks)
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for i in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout $SHARD_S $B/gemmforge_gpu_tests > $R/gpu-tests-$i.log 2>&1 &
done
wait; echo "gpu tests done ${SECONDS}s"
cat $R/gpu-tests-*.log | grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' | awk '{print $1, $2, $3}' | sort | uniq -c | head -5
grep -hE '^\[ +(FAILED|SKIPPED) +\] [A-Z]' $R/gpu-tests-*.log | sort -u | head -20
grep -hE '^\[  (PASSED|FAILED)' $R/gpu-tests-*.log
q; pack; rm -rf $R; ls -la $OUT
