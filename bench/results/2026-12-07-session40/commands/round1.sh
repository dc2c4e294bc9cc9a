# Session 40, call 1 (either card: each tunes its own table's problems).
# (1) The Sm90Kernel GPU tests: every config of theirs also runs as the default space builds it
# (with_space_knobs: lean cluster sync where multicast) with the fast walk, the gate the fast walk
# must pass before with_space_knobs sets it too. (Not run in session 40: no machine started. Its
# tune below is meant for after that: with the fast walk in the space, every Hopper finalist has
# a twin; before it, only the multicast ones.)
# (2) `gemmforge tune --space-twins` on commands/space-twin-shapes-<card>.txt
# (pick_space_twin_shapes.py on tables/<card>.json): each decided problem's Hopper finalists are
# measured again built with the space's knobs, and the final is run again. The databases are the
# shipped tables' own (the H200's: session 29, call1.tar.gz: call1/tune/db; the H100's: session
# 35, call3.tar.xz: call3/tune/db), carried on the CPU machine to this kernel source by
# `gemmforge db carry`, pruned to that source's rows and carried as build/tunedb-<card>.tar.xz.
# The tune stops starting shapes at its time limit and its database comes back (callN/tune/db),
# so a later call goes on: CALL=call2 SKIP_TESTS=1 with that database carried the same way.
CALL=${CALL:-call1}
source scripts/device_call.sh $CALL
C=bench/results/2026-12-07-session40/commands
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
run_tests() {  # $1 name, $2 time limit (s), $3 gtest filter
  timeout -k 5 $2 $B/gemmforge_gpu_tests --gtest_filter="$3" > $R/gpu_tests-$1.log 2>&1
  echo "gpu tests $1 exit $? $(date +%T) ${SECONDS}s"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]|launches through the gate" $R/gpu_tests-$1.log | head -20
}
[ "${SKIP_TESTS:-0}" = 1 ] || run_tests kernels ${TESTS_S:-330} 'Sm90Kernel*'
q; pack
# The card's own table and database: the H200's from session 29's tune (options as there), the
# H100's from session 35's (session 32's options: budget 3, 6 under 32 us, no class seeds). The
# same budgets as the decisions were made with, so no problem searches again; only twins are new.
card=; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200; grep -q '"gpu": "NVIDIA H100' $R/env.json && card=h100
if [ -n "$card" ] && [ -f build/tunedb-$card.tar.xz ]; then
  # The database's CSV files travel uncompressed inside one xz archive (a third smaller than the
  # export's .csv.gz files, which the working tree's size limit asked for); gzip them for import.
  db=build/carried-db-$card
  [ -d $db ] || { tar xJf build/tunedb-$card.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
  if [ $card = h200 ]; then
    budget="BUDGET=6"; args="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6"
  else
    budget="BUDGET=3"; args="--seeds 0 --neighbour-seeds 2 --budget-under 32:6"
  fi
  TUNE_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
  echo "tune ($card) for ${TUNE_S} s"
  env $budget OUT=$R GEMMFORGE_BIN=$B DB_CSV=${DB_CSV:-$db} KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-space \
    TUNE_SHAPES="--shapes $C/space-twin-shapes-$card.txt" PRIOR=tables/h200.json TUNE_ARGS="$args --space-twins" \
    TIME_LIMIT_S=$((TUNE_S - 20)) LIMIT_S=$TUNE_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
else
  echo "no carried database for this card (${card:-neither H200 nor H100}): no tune"
fi
q; pack
rm -rf $R; ls -la $OUT
