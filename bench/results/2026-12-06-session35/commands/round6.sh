# Session 35, call 6 (any Hopper card). (1) A/B: the committed kernels against
# commands/l2-evict-last.patch (every operand box loaded with an L2 evict-last cache policy;
# carried as build/kvar2, GEMMFORGE_DATA_DIR), alternating three times, call 4's shapes and
# configs, gpu mode. (2) Nsight Compute, whole-application replay (no memory restored between
# passes), warm L2, the card's clocks: DRAM bytes and L2 lookups of one 64x4096x4096 tn call, for
# our 64x64 (committed and evict-last) and cuBLAS's kernel.
source scripts/device_call.sh call6
C=bench/results/2026-12-06-session35/commands
pack() { tar cJf $OUT/call6.tar.xz -C $OUT call6; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 80 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/rotation-ab.json \
    --shapes $C/rotation-shapes.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 12 --out $R/$1 > $R/$1.log 2>&1
  echo "$1 exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/$1/summary.md | head -1
}
for i in 1 2 3; do ab v0-$i ""; ab last-$i $PWD/build/kvar2; done
q; pack
m=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,gpu__time_duration.sum
python3 -c "
import json; cs=json.load(open('$C/rotation-ab.json'))
json.dump([x for x in cs if x['layout']=='tn' and x['block_n']==64 and x['block_m']==64 and x['cluster_m']*x['cluster_n']==1][:1], open('/tmp/64x64.json','w'))"
prof() {  # $1 name, $2 data dir or empty, then the bench arguments
  local name=$1 dir=$2; shift 2
  GEMMFORGE_DATA_DIR=$dir timeout 90 ncu --replay-mode application --cache-control none --clock-control none --metrics $m \
    --launch-skip 20 --launch-count 1 "$@" > $R/ncu-$name.txt 2>&1
  echo "ncu $name exit $?"
}
prof gf-v0 "" -k regex:gemmforge_hgemm $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl gemmforge --configs /tmp/64x64.json --pdl on --mode gpu --rounds 1 --out /tmp/pa
prof gf-last $PWD/build/kvar2 -k regex:gemmforge_hgemm $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl gemmforge --configs /tmp/64x64.json --pdl on --mode gpu --rounds 1 --out /tmp/pb
prof cublas "" -k regex:'^(nvjet|sm90|cutlass)' $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl cublas --mode gpu --rounds 1 --out /tmp/pc
grep -hE "nvjet|gemmforge_hgemm|dram__|lts__|gpu__time" $R/ncu-*.txt | head -20
q; pack; rm -rf $R; ls -la $OUT
