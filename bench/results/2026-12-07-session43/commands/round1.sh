# Session 43, call 1 (either card); session 42's round1.sh with a new H100 branch. The build in
# build/carry.tar.xz (build/bin-ab) is HEAD's: the fast walk in the default space. The H200 tune
# database is session 29's (kernel source f97057b4) carried by `db carry` to kernel source
# 4322e1e2 in this session (calls 1-8), then to d7f29c17 (the uniform warpgroup knob's source,
# every candidate the same code), pruned to that source's rows (build/tunedb-h200.tar.xz).
#   H200: `tune --space-twins` on session 40's space-twin-shapes-h200.txt from that database (the
#         H200 table's shapes, BUDGET=6 as session 40 planned): each decided problem's Hopper
#         finalists timed against their fast-walk twins in one final, until the call's time is up.
#         Its table is tables/h200.json's successor.
#   H100: the library with tables/h100.json (session 42's) on the whole grid in offline mode, both
#         layouts, against cuBLASLt-autotune, until the call's time is up (the README's H100
#         offline figure, 1.239×, is session 32's, with an earlier table). H200_ONLY=1: nothing.
CALL=${CALL:-call1}
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
elif [ "$card" = h100 ] && [ -z "${H200_ONLY:-}" ]; then
  echo "library (h100, tables/h100.json) on the grid, offline, for ${LEFT_S} s"
  env OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-grid-offline LIB_SHAPES="--shapes grid" \
    IMPLS=gemmforge-lib,cublaslt-autotune MODES=offline LIMIT_S=$LEFT_S scripts/gpu_round.sh lib 2>&1 | tail -30
else
  echo "neither an H200 nor an H100: nothing run"
fi
q; pack
rm -rf $R; ls -la $OUT
