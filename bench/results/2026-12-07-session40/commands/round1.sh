# Session 40, call 1 (an H200 for the tune: the database and table are the H200's; on an H100 only
# the GPU tests run). (1) The Sm90Kernel GPU tests with the fast walk in the space: every config of
# theirs also runs as the default space builds it now (with_space_knobs: the fast walk, and lean
# cluster sync where multicast). (2) `gemmforge tune --space-twins` on
# commands/space-twin-shapes.txt (pick_space_twin_shapes.py on tables/h200.json): each decided
# problem's Hopper finalists are measured again built with the space's knobs and the final is run
# again. The database is session 29's (the H200 table's: call1.tar.gz, call1/tune/db) carried on the
# CPU machine to this kernel source by `gemmforge db carry` and exported as build/carried-db
# (carried in build/tunedb.tar.xz). Options as session 29's tune (tune-both.json, rl, budget 6,
# 24 under 32 us, 16 under 128 us, heavy finalists 6) with --space-twins instead of --parts-apart
# --cluster-push. The tune stops starting shapes at its time limit and its database comes back
# (callN/tune/db) so a later call goes on: CALL=call2 SKIP_TESTS=1 with that database carried as
# build/tunedb.tar.xz the same way (its CSV files uncompressed in build/dbraw).
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
if grep -q '"gpu": "NVIDIA H200' $R/env.json && [ -f build/tunedb.tar.xz ]; then
  # The database's CSV files travel uncompressed inside one xz archive (a third smaller than the
  # export's .csv.gz files, which the working tree's size limit asked for); gzip them for import.
  [ -d build/carried-db ] || { tar xJf build/tunedb.tar.xz && mv build/dbraw build/carried-db && gzip build/carried-db/*.csv; }
  TUNE_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
  echo "tune for ${TUNE_S} s"
  OUT=$R GEMMFORGE_BIN=$B DB_CSV=${DB_CSV:-build/carried-db} KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-space \
    TUNE_SHAPES="--shapes $C/space-twin-shapes.txt" PRIOR=tables/h200.json \
    TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --space-twins" \
    TIME_LIMIT_S=$((TUNE_S - 20)) LIMIT_S=$TUNE_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
else
  echo "not an H200, or no carried database: no tune"
fi
q; pack
rm -rf $R; ls -la $OUT
