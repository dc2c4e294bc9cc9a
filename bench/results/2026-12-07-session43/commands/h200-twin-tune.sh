# Prepared in session 43, not run (no H200 came): the H200 twin tune for the next session. On an
# H200 only: `tune --space-twins --uniform-warpgroup-twins` on session 40's space-twin-shapes-h200.txt
# (the H200 table's shapes) from session 29's database carried to kernel source d7f29c17
# (build/tunedb-h200.tar.xz; build/carry.tar.xz holds the build as build/bin-ab): each decided
# problem's Hopper finalists timed in one final against their builds as the default space makes
# them now (the fast walk, lean sync where multicast) and, for two consumers, with the uniform
# warpgroup index, until the call's time is up. Its tune/table.json is tables/h200.json's successor.
# Run `scripts/device_tree.sh slim` first (the tree and both carries must fit 64 MiB).
CALL=${CALL:-call1}
source scripts/device_call.sh $CALL
C40=bench/results/2026-12-07-session40/commands
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  db=build/carried-db-h200
  [ -d $db ] || { tar xJf build/tunedb-h200.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
  echo "tune (h200, $B) for ${LEFT_S} s"
  env BUDGET=6 OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-space \
    TUNE_SHAPES="--shapes $C40/space-twin-shapes-h200.txt" PRIOR=tables/h200.json \
    TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --space-twins --uniform-warpgroup-twins" \
    TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
else
  echo "not an H200: nothing run"
fi
q; pack
rm -rf $R; ls -la $OUT
