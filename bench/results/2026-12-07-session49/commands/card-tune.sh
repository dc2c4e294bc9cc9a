# Session 49, call 1's tune (either card; CALL_S seconds, default 570), on the whole grid from the
# card's database carried to this tree's kernel source (build/tunedb-<card>.tar.xz), with the
# budgets it was tuned with (every problem is decided, so nothing is searched again):
#   every card: `--refinal-stale`. A decided problem whose fastest candidates by estimate include one
#     that no final of it has timed (measured after its decision: the class-rule pass measures
#     contenders on every problem, session 48's H100 database has 800 such problems, session 29's
#     H200 one 206) gets its final again with them.
#   H200 also: session 43's twins (never run: no H200 in sessions 43-48): each decided problem's
#     Hopper finalists timed beside their builds as the space makes them now (fast walk, lean sync)
#     and with the uniform warpgroup index.
# Its tune/table.json succeeds tables/<card>.json. Carries as round1.sh. SHAPES (default grid) and
# EXTRA (more tune arguments, default none) change the tune for a later call (next-round1.sh).
CALL=${CALL:-call1}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  g=h200 budget="BUDGET=6" args="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --space-twins --uniform-warpgroup-twins"
else
  g=h100 budget="BUDGET=3" args="--seeds 0 --neighbour-seeds 2 --budget-under 32:6"
fi
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
db=build/carried-db-$g
[ -d $db ] || { tar xJf build/tunedb-$g.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
echo "tune ($g, stale finals ${EXTRA:-}) for ${LEFT_S} s"
env $budget OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-stale \
  TUNE_SHAPES="--shapes ${SHAPES:-grid}" PRIOR=tables/$g.json TUNE_ARGS="$args --refinal-stale ${EXTRA:-}" \
  TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
rm -f $R/tune/tune.sqlite*
q; pack
rm -rf $R; ls -la $OUT
