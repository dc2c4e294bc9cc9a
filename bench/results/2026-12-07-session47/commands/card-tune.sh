# The tune of session 47's round1.sh, by card, for CALL_S seconds from its start (default 570):
# on an H200 session 43's h200-twin-tune.sh (as call1-tune); on an H100 `tune --raster-groups
# 1,2,4` (as call1-raster) on short-k1024-shapes-h100.txt (the H100 table's 138 shapes with
# K >= 1024, M, N >= 512 and at most two waves of 128x256 tiles) from session 42's database
# carried to the tree's kernel source (build/tunedb-h100.tar.xz): each decided problem's finalists
# timed with raster groups 1, 2 and 4 too (session 45 call 2: +3-4% on 1024^3 and 4096^2x1024 in
# separate runs). Its table is tables/h100.json's successor. Carries as round1.sh.
CALL_S=${CALL_S:-570}
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) exec env CALL=call1-tune bash bench/results/2026-12-07-session43/commands/h200-twin-tune.sh ;;
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
