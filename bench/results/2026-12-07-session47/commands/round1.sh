# Session 47, call 1 (either card; ~1.5 min, then a tune to ~570 s).
#   1. Session 46's next-dw.sh (its round4.sh as call1): the committed one-ahead dynamic walk
#      (a cluster takes tile i+1 when its producer starts tile i) timed against the static builds
#      on the 8 mid K >= 1024 shapes (two seeds), its LRC counters on 8192^2x1024 (groups 1, auto),
#      and Sm90Kernel.DynamicWalkPassesTheGate.
#   2. H200: session 43's h200-twin-tune.sh (as call1-tune) for the rest of the call (carries
#      build/tunedb-h200.tar.xz: session 29's database carried to kernel source c9f8be4a).
#      H100: `tune --raster-groups 1,2,4` (as call1-raster) on short-k1024-shapes-h100.txt (the
#      H100 table's 138 shapes with K >= 1024, M, N >= 512 and at most two waves of 128x256
#      tiles) from session 42's database carried to c9f8be4a (build/tunedb-h100.tar.xz): each
#      decided problem's finalists timed with raster groups 1, 2 and 4 too (session 45 call 2:
#      +3-4% on 1024^3 and 4096^2x1024 in separate runs). Its table is tables/h100.json's successor.
# CALL_S: the call's seconds (default 570). Carries build/carry.tar.xz (build/bin-ab); run
# `scripts/device_tree.sh slim` first.
CALL_S=${CALL_S:-570}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
CALL=call1 bash bench/results/2026-12-07-session46/commands/round4.sh
case "$name" in
  *H200*) exec env CALL=call1-tune CALL_S=$((CALL_S - SECONDS)) bash bench/results/2026-12-07-session43/commands/h200-twin-tune.sh ;;
esac
CALL=call1-raster
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
LEFT_S=$(( CALL_S - SECONDS - 30 ))
db=build/carried-db-h100
[ -d $db ] || { tar xJf build/tunedb-h100.tar.xz && mv build/dbraw $db && gzip $db/*.csv; }
echo "tune (h100, raster groups) for ${LEFT_S} s"
env BUDGET=3 OUT=$R GEMMFORGE_BIN=$B DB_CSV=$db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-raster \
  TUNE_SHAPES="--shapes bench/results/2026-12-07-session47/commands/short-k1024-shapes-h100.txt" PRIOR=tables/h100.json \
  TUNE_ARGS="--seeds 0 --neighbour-seeds 2 --budget-under 32:6 --raster-groups 1,2,4" \
  TIME_LIMIT_S=$((LEFT_S - 20)) LIMIT_S=$LEFT_S scripts/gpu_round.sh tune 2>&1 | tail -16
rm -f $R/tune/tune.sqlite*
q; pack
rm -rf $R; ls -la $OUT
