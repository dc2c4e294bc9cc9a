# Session 36, call 1 (any Hopper card). (0) The Runtime and C API GPU tests (session 35's final
# read changed how the tools read table files; never run on a GPU). (1) Deep pipelines on the
# skinny shapes: skinny-deep.json = session 35's skinny-clusters.json (57 configs) + 55 of the same
# tiles with more stages (up to what shared memory holds: 14 for 64x64, 18 for 64x32, 22 for
# 64x16; the rule capped every tile at 12 before), a bench sweep of the nine shapes of
# session 35's rotation-shapes.txt, gated, against cuBLASLt-autotune. Cubins compiled on the CPU
# machine are carried (build/kc36). (2) Nsight Compute, whole-application replay, warm L2, the
# card's clocks, one 64x4096x4096 tn call: L2 read sectors of our swapped 64x32 tile with the
# small operand shared by 1, 2 and 4 CTAs (multicast), each at 8 and 18 stages, and cuBLAS's
# kernel: the sector count against the multicast width splits the sectors into the two operands.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session36/commands
pack() { tar cJf $OUT/call1.tar.xz -C $OUT call1; }
tar xJf build/kc36.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc36/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 90 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?"; tail -3 $R/gpu_tests.log
timeout -k 5 200 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/skinny-deep.json \
  --shapes bench/results/2026-12-06-session35/commands/rotation-shapes.txt --layout both --mode gpu \
  --splits 1,2 --pdl on --finalists 16 --time-limit 180 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/sweep/summary.md | head -2
q; pack
ncu --query-metrics > $R/ncu-metrics.txt 2>&1
m=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__m_xbar2l1tex_read_bytes.sum,gpu__time_duration.sum
prof() {  # $1 name, then the bench arguments
  local name=$1; shift
  timeout 60 ncu --replay-mode application --cache-control none --clock-control none --metrics $m \
    --launch-skip 20 --launch-count 1 "$@" > $R/ncu-$name.txt 2>&1
  echo "ncu $name exit $?"
}
prof cublas -k regex:'^(nvjet|sm90|cutlass)' $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl cublas \
  --mode gpu --rounds 1 --out /tmp/pc
for cl in 1 2 4; do for s in 8 18; do
  python3 -c "
import json; cs=json.load(open('$C/skinny-deep.json'))
json.dump([c for c in cs if c.get('swap_ab') and c['block_n']==32 and c['block_m']==64 and c['cluster_n']==$cl
  and c['stages']==$s][:1], open('/tmp/p.json','w'))"
  prof swap64x32-1x$cl-s$s -k regex:gemmforge_hgemm $B/gemmforge bench --shape 64x4096x4096 --layout tn --impl gemmforge \
    --configs /tmp/p.json --pdl on --mode gpu --rounds 1 --out /tmp/pg
  [ $SECONDS -gt 500 ] && break 2
done; done
grep -hE "nvjet|gemmforge_hgemm|dram__|lts__|l1tex__|gpu__time" $R/ncu-*.txt | head -60
q; pack; rm -rf $R; ls -la $OUT
