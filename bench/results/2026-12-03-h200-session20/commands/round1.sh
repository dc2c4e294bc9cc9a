# Session 20, call 1: the Ceilings GPU tests (tma_write among them), then `gemmforge ceilings`
# with every ceiling, the card's clocks around it; the tma_write variants printed.
set -uo pipefail
tar xJf build/carry1.tar.xz
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 180 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Ceilings*' > $OUT/ceiling_tests.log 2>&1
echo "ceiling gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|Failure|Expected|Which is" $OUT/ceiling_tests.log | head -20
timeout 240 build/bin-ab/gemmforge ceilings --out $OUT/ceilings > $OUT/ceilings.log 2>&1
echo "ceilings exit $?"
tail -20 $OUT/ceilings.log
python3 -c "
import json; m=json.load(open('$OUT/ceilings/ceilings.json'))['measurements']
for v in m['tma_write']['variants']: print(v['destination'], v['boxes_per_group'], v['in_flight'], v['bytes_in_flight'], v['wait'], round(v['gbps']), round(v['per_sm_gbps'],1), round(v.get('per_sm_bytes_per_clock',0),1))
print('l2_write', m['l2_write']['value'], 'hbm_write', m['hbm_write']['value'], m['l2_write'].get('sm_clock_mhz'))"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
