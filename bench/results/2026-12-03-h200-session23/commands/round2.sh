# Session 23, call 2: the Ceilings GPU tests, then `gemmforge ceilings` (l2_read through L2 only
# (call 1's variant grid of multicast boxes, extended: 16 KiB boxes at 4/8/12 in flight, 32 KiB at 3/4/6.)
# with the L1 walks beside it; tma_read with multicast variants), the card's clocks around it.
set -uo pipefail
tar xJf build/carry2.tar.xz
mkdir -p $OUT/call2
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/call2/clocks-start.csv
timeout 180 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Ceilings*' > $OUT/call2/ceiling_tests.log 2>&1
echo "ceiling gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|Failure|Expected|Which is" $OUT/call2/ceiling_tests.log | head -20
timeout 240 build/bin-ab/gemmforge ceilings --out $OUT/call2/ceilings > $OUT/call2/ceilings.log 2>&1
echo "ceilings exit $?"
tail -22 $OUT/call2/ceilings.log
python3 -c "
import json; m=json.load(open('$OUT/call2/ceilings/ceilings.json'))['measurements']
r=m['l2_read']; print('l2_read', round(r['value']), 'through_l1', round(r['through_l1_gbps']), 'rotated', round(r['through_l1_rotated_gbps']))
print('l2_resident', m['l2_resident']['value'])
for v in m['tma_read']['variants']: print(v['path'], v.get('cluster',1), v['box_rows'], v['in_flight'], v['spread'], v['ctas'], round(v['gbps']), round(v['per_sm_gbps'],1), round(v.get('per_sm_bytes_per_clock',0),1))"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/call2/clocks-end.csv
cd $OUT && tar czf call2.tar.gz call2 && rm -rf call2
