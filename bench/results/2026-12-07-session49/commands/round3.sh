# Session 49, call 3 (either card, ~2 min): the Runtime GPU tests after the mend of call 2's one
# failure (the tests zeroed C with cudaMemset on the legacy stream, which does not order the
# non-blocking stream's next call after it; now cudaMemsetAsync on that stream), in four processes
# at once as call 2's eight shards loaded the card. Carries build/carry.tar.xz.
CALL=${CALL:-call3}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
for i in 0 1 2 3; do
  timeout ${TEST_S:-120} $B/gemmforge_gpu_tests --gtest_filter='Runtime.*' > $R/runtime-tests-$i.log 2>&1 &
done
wait; echo "runtime tests done ${SECONDS}s"
cat $R/runtime-tests-*.log | grep -E '^\[ +(OK|FAILED) +\]' | awk '{print $1, $2, $3}' | sort | uniq -c
grep -hE '^\[  (PASSED|FAILED)' $R/runtime-tests-*.log
q; pack; rm -rf $R; ls -la $OUT
