# Session 44, call 2 (either card): the twin tune with the uniform warpgroup index.
#   H200: session 43's h200-twin-tune.sh (--space-twins --uniform-warpgroup-twins on session 40's
#         space-twin-shapes-h200.txt from session 29's database carried to kernel source d7f29c17,
#         build/tunedb-h200.tar.xz).
#   H100: `tune --space-twins --uniform-warpgroup-twins` on session 40's space-twin-shapes-h100.txt
#         from session 42's call-2 database (the one tables/h100.json came from) carried from
#         kernel source 4322e1e2 to d7f29c17 (build/tunedb-h100.tar.xz), with session 41/42's H100
#         settings: each decided problem whose finalists have two consumers is reopened, their
#         builds with the uniform warpgroup index timed in one final against them, until the
#         call's time is up. Its tune/table.json is tables/h100.json's successor.
# build/carry.tar.xz holds the build (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
source scripts/device_call.sh $CALL
C40=bench/results/2026-12-07-session40/commands
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  q; rm -rf $R
  exec env CALL=$CALL CALL_S=$(( ${CALL_S:-570} - SECONDS )) bash bench/results/2026-12-07-session43/commands/h200-twin-tune.sh
fi
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
if grep -q '"gpu": "NVIDIA H100' $R/env.json; then
  db=build/carried-db-h100
  [ -d $db ] || { tar xJf build/tunedb-h100.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
  echo "tune (h100, $B) for ${LEFT_S} s"
  env BUDGET=3 OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-uw \
    TUNE_SHAPES="--shapes $C40/space-twin-shapes-h100.txt" PRIOR=tables/h200.json \
    TUNE_ARGS="--seeds 0 --neighbour-seeds 2 --budget-under 32:6 --space-twins --uniform-warpgroup-twins" \
    TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
  rm -f $R/tune/tune.sqlite*
else
  echo "neither an H200 nor an H100: nothing run"
fi
q; pack
rm -rf $R; ls -la $OUT
