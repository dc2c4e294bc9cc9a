# Session 23, call 4: the Ceilings GPU tests, then `gemmforge ceilings` (l2_read through L2 only
# (beside the multicast walk, groups of 2 and 4 CTAs reading the same boxes at once without it.)
# with the L1 walks beside it; tma_read with multicast variants), the card's clocks around it.
set -uo pipefail
tar xJf build/carry4.tar.xz
mkdir -p $OUT/call4
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/call4/clocks-start.csv
timeout 180 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Ceilings*' > $OUT/call4/ceiling_tests.log 2>&1
echo "ceiling gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|Failure|Expected|Which is" $OUT/call4/ceiling_tests.log | head -20
timeout 240 build/bin-ab/gemmforge ceilings --out $OUT/call4/ceilings > $OUT/call4/ceilings.log 2>&1
echo "ceilings exit $?"
tail -22 $OUT/call4/ceilings.log
python3 -c "
import json; m=json.load(open('$OUT/call4/ceilings/ceilings.json'))['measurements']
r=m['l2_read']; print('l2_read', round(r['value']), 'through_l1', round(r['through_l1_gbps']), 'rotated', round(r['through_l1_rotated_gbps']))
print('l2_resident', m['l2_resident']['value'])
for v in m['tma_read']['variants']: print(v['path'], v.get('cluster',1), v.get('share',1), v['box_rows'], v['in_flight'], v['spread'], v['ctas'], round(v['gbps']), round(v['per_sm_gbps'],1), round(v.get('per_sm_bytes_per_clock',0),1))"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/call4/clocks-end.csv
cd $OUT && tar czf call4.tar.gz call4 && rm -rf call4
