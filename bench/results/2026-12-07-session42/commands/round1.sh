# Session 42, call 3 (either card), after the fast walk entered the default space
# (`with_space_knobs` sets it; session 41's fw-in-space.patch, applied). build/carry.tar.xz holds
# that tree's build as build/bin-ab; the H200 tune database is session 40's carried to kernel
# source 4322e1e2 (build/tunedb-h200.tar.xz, as for session 41's calls).
#   H200: `tune --space-twins` on session 40's space-twin-shapes-h200.txt from that database (the
#         H200 table's shapes, BUDGET=6 as session 40 planned): each decided problem's Hopper
#         finalists timed against their fast-walk twins in one final, until the call's time is up.
#         Its table is tables/h200.json's successor for the problems it reached.
#   H100: the library with the new tables/h100.json (call 2's twin tune) on the whole grid, gpu
#         mode, both layouts, against cuBLASLt-autotune (issue 5's H100 figure, 1.033× in session
#         32), until the call's time is up.
CALL=${CALL:-call3}
source scripts/device_call.sh $CALL
C40=bench/results/2026-12-07-session40/commands
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
card=; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200; grep -q '"gpu": "NVIDIA H100' $R/env.json && card=h100
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
if [ "$card" = h200 ]; then
  db=build/carried-db-h200
  [ -d $db ] || { tar xJf build/tunedb-h200.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
  echo "tune (h200, $B) for ${LEFT_S} s"
  env BUDGET=6 OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-space \
    TUNE_SHAPES="--shapes $C40/space-twin-shapes-h200.txt" PRIOR=tables/h200.json \
    TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --space-twins" \
    TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
elif [ "$card" = h100 ]; then
  echo "library (h100, tables/h100.json) on the grid for ${LEFT_S} s"
  env OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-grid LIB_SHAPES="--shapes grid" \
    IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$LEFT_S scripts/gpu_round.sh lib 2>&1 | tail -30
else
  echo "neither an H200 nor an H100: nothing run"
fi
q; pack
rm -rf $R; ls -la $OUT
