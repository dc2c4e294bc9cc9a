# Session 42, call 4 (either card; what was left of the session's device time, ~4 minutes), the
# same tree and carry as call 3 (`round1.sh`).
#   H200: round1.sh's H200 branch, the twin tune from session 40's carried database, for the call.
#   H100: every GPU test but the Sm90Kernel ones (call 2 ran those), with the fast walk in the
#         default space and the new tables/h100.json: the Runtime and C API tests serve that
#         table's kernels through hgemm.
CALL=${CALL:-call4}
source scripts/device_call.sh $CALL
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  q; rm -rf $R; exec env CALL=$CALL CALL_S=$(( ${CALL_S:-200} - SECONDS )) bash bench/results/2026-12-07-session42/commands/round1.sh
fi
timeout -k 5 $(( ${CALL_S:-200} - SECONDS - 15 )) $B/gemmforge_gpu_tests --gtest_filter='-Sm90Kernel*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? ${SECONDS}s"
grep -E "^\[  (PASSED|FAILED) |FAILED  \]|tests ran" $R/gpu_tests.log | head -20
q; tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; rm -rf $R; ls -la $OUT
