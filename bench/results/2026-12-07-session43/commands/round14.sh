# Session 43, call 14 (either card): every GPU test with the code that landed (the uniform
# warpgroup index in the default space, so every Sm90Kernel test's space twins carry it; the
# tables re-keyed to kernel source d7f29c17). build/carry.tar.xz holds that build as build/bin-ab.
CALL=${CALL:-call14}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout ${TESTS_S:-420} $B/gemmforge_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests? ran|FAILED TEST" $R/gpu_tests.log | tail -12
q; pack
rm -rf $R; ls -la $OUT
