# Session 48's walk call (either card, ~2 min), prepared without a device (none was lent).
#   1. walk-quads.json on the 8 mid K >= 1024 shapes (gpu mode, two seeds): session 46's three
#      static/_dw pairs (128x176 ping-pong 2x1 and 1x1, 128x256 cooperative 2x1), each also built
#      to walk along N (_wn: raster groups of tile columns, n fastest, serpentine in m; cuBLAS's
#      order), so one sweep answers both: the one-ahead feed against static (session 47's
#      prediction) and the walk along N against the default walk, with and without the feed.
#      walk_pairs.py reads it.
#   2. The L2 coalescer counters (LRC) of the 2x1 ping-pong _wn and _dw_wn builds on 8192^2x1024,
#      automatic group (session 46: static 2.11 M hardware merges, one-ahead _dw unmeasured,
#      four-ahead _dw 4.04 M with group 1, cuBLAS 10.9 M).
#   3. The GPU tests Sm90Kernel.DynamicWalk* and Sm90Kernel.WalkAlongN* (their cubins compiled
#      first, in parallel).
# Carries build/carry.tar.xz (build/bin-ab of the tree it runs on); `scripts/device_tree.sh slim`.
CALL=${CALL:-call1}
C=bench/results/2026-12-07-session48/commands
C45=bench/results/2026-12-07-session45/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
$B/gemmforge kernels --configs $C/walk-quads.json --compile --out $R/kernels.json 2>&1 | tail -1
bench_seed() {
  timeout 200 $B/gemmforge bench --shapes $C45/mid-k1024-shapes.txt --layout tn --impl gemmforge \
    --configs $C/walk-quads.json --finalists 99 --mode gpu --seed $1 --out $R/walk-$1 > $R/walk-$1.log 2>&1
  echo "walk-$1 exit $? ${SECONDS}s"; grep -iE "fail|error" $R/walk-$1.log | head -5
  q; pack
}
bench_seed 1  # first: the device time left may not cover the whole call
M='regex:^(lrc__request_sectors_op_read_coalescing_achieved_type_(hardware|programmatic)\.sum|lrc__lts2lrc_sectors_op_read\.sum|lrc__xbar2gpc_sectors_op_read\.sum|sm__cycles_elapsed\.avg)$'
for v in wn dw-wn; do
  timeout 60 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
    --configs $C/ncu-pp176-$v.json --mode gpu --rounds 1 --out /tmp/n-$v > $R/ncu-$v.csv 2>&1
  echo "ncu $v exit $? ${SECONDS}s"
  grep -E '"(lrc__|sm__cycles)' $R/ncu-$v.csv | tail -5 | awk -F'","' '{print $(NF-2), $NF}'
  xz -f $R/ncu-$v.csv; pack
done
bench_seed 2
python3 $C/walk_pairs.py $R/walk-1/sweep.csv $R/walk-2/sweep.csv > $R/walk-pairs.txt 2>&1; cat $R/walk-pairs.txt
$B/gemmforge kernels --configs $C/wn-test-configs.json --compile --out /tmp/kt.json 2>&1 | tail -1
$B/gemmforge kernels --configs bench/results/2026-12-07-session46/commands/dw-test-configs.json --compile \
  --out /tmp/kd.json 2>&1 | tail -1
timeout 200 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.DynamicWalk*:Sm90Kernel.WalkAlongN*' > $R/gpu-tests.log 2>&1
echo "gpu tests exit $? ${SECONDS}s"; grep -E '^\[ +(OK|FAILED) +\]|Failure' $R/gpu-tests.log | head -12
q; pack
