# Session 45, call 2 (either card, ~4 min): the raster group on compute-bound mid shapes. The
# tuner measured groups only for K <= 512 (README, Limits), so every K >= 1024 entry runs the
# automatic group (a wave of clusters sized to a square of C, ~8 cluster rows on 132 SMs). Which
# tiles run together decides which A and B boxes the SMs ask L2 for at once. (1) The tn configs of
# session 44's uw-only.json on mid-k1024-shapes.txt, gpu mode, every config timed (99 finalists),
# one group per run: auto, 1, 2, 4, 16, alternating, two seeds; scripts/ab_sweeps.py reads them.
# (2) Nsight Compute on 8192x8192x1024 tn, 128x176 ping-pong 2x1 s5 _uw, groups 1 and 32: L2
# read sectors and cycles beside call 1's auto-group numbers.
# Carries build/carry.tar.xz (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
C=bench/results/2026-12-07-session45/commands
C44=bench/results/2026-12-07-session44/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
run() {  # $1 group, $2 seed
  timeout 90 $B/gemmforge bench --shapes $C/mid-k1024-shapes.txt --layout tn --impl gemmforge,cublaslt-autotune \
    --configs $C/uw-tn.json --finalists 99 --group-m $1 --mode gpu --seed $2 --out $R/g$1-$2 > $R/g$1-$2.log 2>&1
  echo "g$1-$2 exit $? ${SECONDS}s"
}
for s in 1 2; do for g in auto 1 2 4 16; do run $g $s; done; done
q; pack
python3 scripts/ab_sweeps.py auto=$R/gauto-1,$R/gauto-2 g1=$R/g1-1,$R/g1-2 g2=$R/g2-1,$R/g2-2 g4=$R/g4-1,$R/g4-2 \
  g16=$R/g16-1,$R/g16-2 > $R/ab-groups.txt 2>&1; tail -14 $R/ab-groups.txt
M='regex:^(lts__t_sectors_srcunit_tex_op_read\.sum|lts__t_sectors_srcunit_ltcfabric\.sum|sm__cycles_elapsed\.avg|dram__bytes_read\.sum)$'
for g in 1 32; do
  timeout 100 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
    --configs $C44/ncu-128x176pp-uw.json --group-m $g --mode gpu --rounds 1 --out /tmp/n-g$g > $R/ncu-g$g.csv 2>&1
  echo "ncu g$g exit $? ${SECONDS}s"
  grep -E '"(lts__|sm__cycles|dram__)' $R/ncu-g$g.csv | tail -4 | awk -F'","' '{print $(NF-2), $NF}'
done
q; xz -f $R/*.csv; pack; rm -rf $R; ls -la $OUT
