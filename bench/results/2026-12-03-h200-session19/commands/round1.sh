# Session 19, call 1: the Ceilings GPU tests (L2's write rate, TMA's delivery per SM, what a warm
# L2 keeps, wgmma alone), then `gemmforge ceilings` with all of them, the card's clocks around it.
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
for v in m['tma_read']['variants']: print(v['path'], v.get('threads',''), v['box_rows'], v['in_flight'], v['swizzle'], v['spread'], round(v['gbps']), round(v['per_sm_gbps'],1), round(v.get('per_sm_bytes_per_clock',0),1))
print('l2_write', m['l2_write']['value'], m['l2_write'].get('sm_clock_mhz'))"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
