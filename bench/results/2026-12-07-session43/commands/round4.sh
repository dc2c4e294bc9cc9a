# Session 43, call 4 (either card): producer stores (KernelConfig::producer_stores, the work tree
# then; build/carry-ps.tar.xz holds its build as build/bin-ps). (1) The new GPU test:
# Sm90Kernel.ProducerStoresPassTheGate (cooperative and ping-pong builds, whole, split-K and
# stream-K launches, persistent or not). (2) If it passes: each config of
# producer-stores-ab.json with and without the knob, timed in the same interleaved rounds
# (--finalists 99), gpu mode, both layouts, on ps-shapes.txt, beside cuBLASLt-autotune (SEED: the
# bench seed, which also orders the rounds; call 6 is the same with SEED=2).
CALL=${CALL:-call4}
C=bench/results/2026-12-07-session43/commands
tar xJf build/carry-ps.tar.xz
export GEMMFORGE_BIN=build/bin-ps
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 240 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.ProducerStores*' > $R/gpu_tests.log 2>&1
rc=$?; tail -4 $R/gpu_tests.log; echo "gpu tests rc $rc"
if [ $rc -eq 0 ]; then
  timeout 280 $B/gemmforge bench --shapes $C/ps-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
    --configs $C/producer-stores-ab.json --finalists 99 --mode gpu --seed ${SEED:-1} --out $R/ab 2>&1 | grep -v "^\[" | tail -12
fi
q; pack
rm -rf $R; ls -la $OUT
