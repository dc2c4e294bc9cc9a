# Session 41, call 1 (either card). Session 40's round1.sh with one change: the fast-walk gate and
# the tune that needs it run in one call (a machine goes back 30 s after a call, so each call pays
# a start). build/carry.tar.xz holds two gemmforge builds of the same tree (commit cf90620):
#   build/bin-ab  as committed: with_space_knobs sets lean cluster sync where multicast;
#   build/bin-fw  with `c.fast_walk = true;` added to with_space_knobs (the one-line change the
#                 gate decides; bench/NOTES.md [session41]).
# (1) Sm90Kernel GPU tests (bin-ab): every config also runs as a twin built with the space's knobs
#     and the fast walk. (2) If every test passed, `tune --space-twins` with bin-fw (each decided
#     problem's Hopper finalists measured again with lean sync where multicast and the fast walk);
#     if any failed, with bin-ab (lean twins only). Shapes, budgets and databases as session 40's.
CALL=${CALL:-call1}
source scripts/device_call.sh $CALL
C=bench/results/2026-12-07-session40/commands
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
run_tests() {  # $1 name, $2 time limit (s), $3 gtest filter
  timeout -k 5 $2 $B/gemmforge_gpu_tests --gtest_filter="$3" > $R/gpu_tests-$1.log 2>&1
  echo "gpu tests $1 exit $? $(date +%T) ${SECONDS}s"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]|launches through the gate" $R/gpu_tests-$1.log | head -20
}
TUNE_BIN=${TUNE_BIN:-}
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  run_tests kernels ${TESTS_S:-330} "${TESTS_FILTER:-Sm90Kernel*}"
  if grep -q '^\[  PASSED  \]' $R/gpu_tests-kernels.log && ! grep -q '^\[  FAILED  \]' $R/gpu_tests-kernels.log; then
    TUNE_BIN=${TUNE_BIN:-build/bin-fw}; echo "gate passed: tune with the fast walk in the space"
  else
    TUNE_BIN=${TUNE_BIN:-build/bin-ab}; echo "gate not passed: tune with lean twins only"
  fi
fi
TUNE_BIN=${TUNE_BIN:-build/bin-ab}
q; pack
card=; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200; grep -q '"gpu": "NVIDIA H100' $R/env.json && card=h100
if [ -n "$card" ] && [ -f build/tunedb-$card.tar.xz ]; then
  db=build/carried-db-$card
  [ -d $db ] || { tar xJf build/tunedb-$card.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
  if [ $card = h200 ]; then
    budget="BUDGET=6"; args="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6"
  else
    budget="BUDGET=3"; args="--seeds 0 --neighbour-seeds 2 --budget-under 32:6"
  fi
  TUNE_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
  echo "tune ($card, $TUNE_BIN) for ${TUNE_S} s"
  env $budget OUT=$R GEMMFORGE_BIN=$TUNE_BIN DB_CSV=${DB_CSV:-$db} KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-space \
    TUNE_SHAPES="--shapes $C/space-twin-shapes-$card.txt" PRIOR=tables/h200.json TUNE_ARGS="$args --space-twins" \
    TIME_LIMIT_S=$((TUNE_S - 20)) LIMIT_S=$TUNE_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
else
  echo "no carried database for this card (${card:-neither H200 nor H100}): no tune"
fi
q; pack
rm -rf $R; ls -la $OUT
