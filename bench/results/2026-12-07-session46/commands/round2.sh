# Session 46, call 2 (either card, ~5 min). Call 1 found that 1x2 (A multicast) gets no more
# hardware merges in L2's request coalescer than 2x1 (2.2 M against cuBLAS's 10.9 M), with either
# raster group: adjacency in our walk does not make two clusters' requests meet. So:
# (a) cuBLAS's SASS (Nsight Compute source page of nvjet_sm90_hsh_176x128_64x5_1x2_h_bz, one
#     launch, 8192x8192x1024 tn): how its producer orders its TMA loads and how its tile
#     scheduler maps a CTA to tiles (special registers read, e.g. SR_SMID / cluster ids).
# (b) the 1x1 build's hardware merges (18.7 M with the automatic group) with groups 1 and 32:
#     do its merges come from walk neighbours?
# (c) the Sm90Kernel GPU tests, which ran out of 200 s on a fresh machine in session 45, in eight
#     gtest shards at once (the JIT compiles run in parallel; the cubin cache is shared).
# Carries build/carry.tar.xz (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
C45=bench/results/2026-12-07-session45/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ncu --version | tail -1
timeout 90 ncu --clock-control none --cache-control none --section SourceCounters --import-source no \
  --launch-count 1 -k regex:'^nvjet_sm90_hsh_176x128_64x5_1x2' -o $R/cublas \
  $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl cublaslt-autotune --mode gpu --rounds 1 \
  --out /tmp/n-cub > $R/ncu-cublas.log 2>&1
echo "ncu cublas exit $? ${SECONDS}s"; tail -3 $R/ncu-cublas.log
ncu -i $R/cublas.ncu-rep --page source --print-source sass --csv > $R/cublas-sass.csv 2> $R/sass.err
echo "sass page exit $? lines $(wc -l < $R/cublas-sass.csv)"; head -c 600 $R/sass.err
ncu -i $R/cublas.ncu-rep --page details --csv > $R/cublas-details.csv 2>&1
M='regex:^(lrc__request_sectors_op_read_coalescing_achieved_type_(hardware|programmatic)\.sum|lrc__lts2lrc_sectors_op_read\.sum|lrc__xbar2gpc_sectors_op_read\.sum|sm__cycles_elapsed\.avg)$'
for g in 1 32; do
  timeout 60 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
    --configs $C45/ncu-128x176pp-1x1.json --group-m $g --mode gpu --rounds 1 --out /tmp/n-1x1-$g > $R/ncu-1x1-g$g.csv 2>&1
  echo "ncu 1x1 g$g exit $? ${SECONDS}s"
  grep -E '"(lrc__|sm__cycles)' $R/ncu-1x1-g$g.csv | tail -5 | awk -F'","' '{print $(NF-2), $NF}'
done
q; xz -f $R/*.csv; pack
for i in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 300 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*' \
    > $R/gpu-tests-$i.log 2>&1 &
done
wait; echo "gpu tests done ${SECONDS}s"
cat $R/gpu-tests-*.log | grep -E '^\[ +(OK|FAILED|SKIPPED) +\]' | sort | uniq -c | sort -rn | head -20
grep -hE '^\[  (PASSED|FAILED)' $R/gpu-tests-*.log
q; pack; rm -rf $R; ls -la $OUT
