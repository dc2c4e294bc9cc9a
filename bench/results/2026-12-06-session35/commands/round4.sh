# Session 35, call 4 (any Hopper card). (1) A/B: the committed kernels against commands/k-rotation.patch
# (each tile's K walk starts at a hashed k-block, so SMs sharing an operand do not read the same
# lines at once; carried as build/kvar, GEMMFORGE_DATA_DIR), alternating three times, on the
# L2-resident skinny shapes and controls, 12 configs, split 1 and 2, gpu mode. (2) Nsight Compute
# with warm L2 and the card's clocks on 64x4096x4096 tn: what L2 sends to the SMs for cuBLAS's
# kernel, our swapped 64x32 1x2 tiling and our 64x64.
source scripts/device_call.sh call4
C=bench/results/2026-12-06-session35/commands
pack() { tar cJf $OUT/call4.tar.xz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 80 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/rotation-ab.json \
    --shapes $C/rotation-shapes.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 12 --out $R/$1 > $R/$1.log 2>&1
  echo "$1 exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/$1/summary.md | head -1
}
for i in 1 2 3; do ab v0-$i ""; ab rot-$i $PWD/build/kvar; done
q; pack
m=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__m_xbar2l1tex_read_bytes.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__t_sectors_srcunit_tex.sum
timeout 60 ncu --cache-control none --clock-control none --metrics $m -k regex:'^(nvjet|sm90|cutlass)' --launch-skip 20 --launch-count 1 \
  $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl cublas --mode gpu --rounds 1 --out /tmp/p1 > $R/ncu-cublas.txt 2>&1
for c in 64x32-1x2-swap 64x64; do
  python3 -c "
import json; cs=json.load(open('$C/rotation-ab.json'))
pick={'64x32-1x2-swap': lambda c: c.get('swap_ab') and c['cluster_n']==2, '64x64': lambda c: c['layout']=='tn' and c['block_n']==64 and c['block_m']==64 and c['cluster_m']*c['cluster_n']==1}['$c']
json.dump([x for x in cs if pick(x)][:1], open('/tmp/$c.json','w'))"
  timeout 60 ncu --cache-control none --clock-control none --metrics $m -k regex:gemmforge_hgemm --launch-skip 20 --launch-count 1 \
    $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl gemmforge --configs /tmp/$c.json --pdl on --mode gpu --rounds 1 --out /tmp/p-$c > $R/ncu-$c.txt 2>&1
done
grep -hE "nvjet|gemmforge_hgemm|lts__|l1tex__|gpu__time|sm__cycles" $R/ncu-*.txt | head -30
q; pack; rm -rf $R; ls -la $OUT
