# Session 43, call 12 (either card): the uniform warpgroup index (KernelConfig::uniform_warpgroup,
# the work tree then; build/carry-uw.tar.xz holds its build as build/bin-uw). (1) The new GPU test
# Sm90Kernel.UniformWarpgroupPassesTheGate. (2) If it passes: each config of
# uniform-warpgroup-ab.json with and without the knob, timed in the same interleaved rounds
# (--finalists 99), gpu mode, both layouts, on uw-shapes.txt, beside cuBLASLt-autotune (SEED: the
# bench seed).
CALL=${CALL:-call12}
C=bench/results/2026-12-07-session43/commands
tar xJf build/carry-uw.tar.xz
export GEMMFORGE_BIN=build/bin-uw
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 300 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.UniformWarpgroup*' > $R/gpu_tests.log 2>&1
rc=$?; tail -4 $R/gpu_tests.log; echo "gpu tests rc $rc"
if [ $rc -eq 0 ]; then
  timeout 240 $B/gemmforge bench --shapes $C/uw-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
    --configs $C/uniform-warpgroup-ab.json --finalists 99 --mode gpu --seed ${SEED:-1} --out $R/ab 2>&1 | grep -v "^\[" | tail -12
fi
q; pack
rm -rf $R; ls -la $OUT
