# Session 45, call 3 (either card, ~3 min). Call 1 found where cuBLAS's L2 reads go: the SMs
# receive the same sectors (58.5 M), multicast merges the same 16.9 M for both kernels, but L2's
# request coalescer (LRC) merges 10.9 M more of cuBLAS's requests by hardware (requests for the
# same sectors that meet), against 1.2 M of ours (2x1) and 18.7 M of our 1x1 build. (1) Which walk
# makes ours meet: LRC counters on 8192x8192x1024 tn for 128x176 ping-pong s5 _uw as 2x1 (B
# multicast) with group 1 (auto is call 1's; RUNS="2x1:auto 2x1:2 ..." adds more), and as 1x2 (A multicast: the walk's consecutive clusters
# then share the operand that is not multicast) with groups auto and 1. (2) 2x1 against 1x2 timed
# in the same runs (99 finalists) on mid-k1024-shapes.txt tn, gpu mode, two seeds.
# Carries build/carry.tar.xz (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call3}
C=bench/results/2026-12-07-session45/commands
C44=bench/results/2026-12-07-session44/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
M='regex:^(lrc__request_sectors_op_read_coalescing_achieved_type_(hardware|programmatic)\.sum|lrc__lts2lrc_sectors_op_read\.sum|lrc__xbar2gpc_sectors_op_read\.sum|lts__t_sectors_srcunit_tex_op_read\.sum|sm__cycles_elapsed\.avg)$'
for run in ${RUNS:-2x1:1 1x2:auto 1x2:1}; do
  cl=${run%%:*}; g=${run#*:}; cfg=$C44/ncu-128x176pp-uw.json; [ $cl = 1x2 ] && cfg=$C/ncu-128x176pp-uw-1x2.json
  timeout 60 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
    --configs $cfg --group-m $g --mode gpu --rounds 1 --out /tmp/n-$cl-$g > $R/ncu-$cl-g$g.csv 2>&1
  echo "ncu $cl g$g exit $? ${SECONDS}s"
  grep -E '"(lrc__|lts__|sm__cycles)' $R/ncu-$cl-g$g.csv | tail -6 | awk -F'","' '{print $(NF-2), $NF}'
done
q; xz -f $R/*.csv; pack
for s in 1 2; do
  timeout 60 $B/gemmforge bench --shapes $C/mid-k1024-shapes.txt --layout tn --impl gemmforge,cublaslt-autotune \
    --configs $C/pp176-2x1-1x2.json --finalists 99 --mode gpu --seed $s --out $R/cl-$s > $R/cl-$s.log 2>&1
  echo "cl-$s exit $? ${SECONDS}s"
done
q; pack; rm -rf $R; ls -la $OUT
