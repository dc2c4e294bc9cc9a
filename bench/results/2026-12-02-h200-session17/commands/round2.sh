# Session 17, call 2: the new ceilings' GPU tests (what a warm L2 keeps, wgmma alone), then
# `gemmforge ceilings` with both, the card's clocks before and after.
set -uo pipefail
tar xJf build/carry2.tar.xz
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-start.csv
timeout 120 build/bin-ab/gemmforge_gpu_tests --gtest_filter='Ceilings*' > $OUT/ceiling_tests.log 2>&1
echo "ceiling gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|Failure|Expected|Which is" $OUT/ceiling_tests.log | head -20
timeout 240 build/bin-ab/gemmforge ceilings --out $OUT/ceilings > $OUT/ceilings.log 2>&1
echo "ceilings exit $?"
tail -20 $OUT/ceilings.log
python3 -c "
import json; m=json.load(open('$OUT/ceilings/ceilings.json'))['measurements']['l2_resident']
print('l2 curve', [(p['mib'], round(p['gbps'])) for p in m['curve']])"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $OUT/clocks-end.csv
