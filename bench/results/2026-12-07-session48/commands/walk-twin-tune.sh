# After walk.sh, if a _wn or _dw_wn build gained >= 1% (either card, CALL_S seconds, default 570):
# `tune --walk-n-twins --dynamic-walk-twins` on the card's table's mid shapes with every dimension
# >= 1024 (mid-1024-shapes-<card>.txt: 152 shapes, 304 problems, both layouts), from the card's
# database carried to this tree's kernel source. Every decided problem is reopened: its Hopper
# finalists are also timed built to walk along N and, unsplit, with both walks, and the final
# decides again. The budgets are those the databases were tuned with (sessions 29 and 42), so
# nothing is searched again. Its table succeeds tables/<card>.json where it covers the problems.
# Carries build/carry.tar.xz and build/tunedb-<card>.tar.xz; `scripts/device_tree.sh slim` first.
CALL=${CALL:-call2}
C=bench/results/2026-12-07-session48/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  g=h200 budget="BUDGET=6" args="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6"
else
  g=h100 budget="BUDGET=3" args="--seeds 0 --neighbour-seeds 2 --budget-under 32:6"
fi
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
db=build/carried-db-$g
[ -d $db ] || { tar xJf build/tunedb-$g.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
echo "tune ($g, walk twins) for ${LEFT_S} s"
env $budget OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-walk \
  TUNE_SHAPES="--shapes $C/mid-1024-shapes-$g.txt" PRIOR=tables/$g.json \
  TUNE_ARGS="$args --walk-n-twins --dynamic-walk-twins" \
  TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
rm -f $R/tune/tune.sqlite*
q; pack
rm -rf $R; ls -la $OUT
