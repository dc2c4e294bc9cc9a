# Session 46, call 4 (either card, ~1 min): call 3 again after one change to the dynamic walk.
# Call 3 found its builds 6-25% slower than the static ones; their SASS had 3 more GPU-wide fences
# (MEMBAR.ALL.GPU: the readers' and the feed's cluster-scope release arrivals, which wait for the
# thread's loads in flight, the producer's TMA loads among them, at every unit) and 10 more L1
# invalidations (CCTL.IVALL: the cluster-scope acquire waits). The feed's barriers now arrive and
# wait at CTA scope, as the stage ring's do, and its builds have the static builds' fences.
# The kernels it ran: commit 6a04871's with call4-kernels.patch (kept here; the feed changed again
# after this call, before any commit).
CALL=${CALL:-call4}
[ -f build/carry46.tar.xz ] && tar xJf build/carry46.tar.xz  # this session's calls; later ones carry build/carry.tar.xz
C=bench/results/2026-12-07-session46/commands
C45=bench/results/2026-12-07-session45/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
$B/gemmforge kernels --configs $C/dw-pairs.json --compile --out $R/kernels.json 2>&1 | tail -1
bench_seed() {
  timeout 150 $B/gemmforge bench --shapes $C45/mid-k1024-shapes.txt --layout tn --impl gemmforge \
    --configs $C/dw-pairs.json --finalists 99 --mode gpu --seed $1 --out $R/dw-$1 > $R/dw-$1.log 2>&1
  echo "dw-$1 exit $? ${SECONDS}s"; grep -iE "fail|error" $R/dw-$1.log | head -5
  q; pack
}
bench_seed 1  # first: the device time left may not cover the whole call
M='regex:^(lrc__request_sectors_op_read_coalescing_achieved_type_(hardware|programmatic)\.sum|lrc__lts2lrc_sectors_op_read\.sum|lrc__xbar2gpc_sectors_op_read\.sum|sm__cycles_elapsed\.avg)$'
for g in 1 auto; do
  timeout 60 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
    --configs $C/ncu-128x176pp-uw-dw.json --group-m $g --mode gpu --rounds 1 --out /tmp/n-dw-$g > $R/ncu-dw-g$g.csv 2>&1
  echo "ncu dw g$g exit $? ${SECONDS}s"
  grep -E '"(lrc__|sm__cycles)' $R/ncu-dw-g$g.csv | tail -5 | awk -F'","' '{print $(NF-2), $NF}'
  xz -f $R/ncu-dw-g$g.csv; pack
done
bench_seed 2
$B/gemmforge kernels --configs $C/dw-test-configs.json --compile --out /tmp/kt.json 2>&1 | tail -1
timeout 150 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.DynamicWalk*' > $R/gpu-tests.log 2>&1
echo "gpu tests exit $? ${SECONDS}s"; grep -E '^\[ +(OK|FAILED) +\]|Failure' $R/gpu-tests.log | head -12
q; pack; rm -rf $R; ls -la $OUT
