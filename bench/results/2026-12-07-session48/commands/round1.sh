# Session 48, call 1, prepared for the next session (either card; ~3 min, then a tune to CALL_S).
#   1. walk.sh: the one-ahead dynamic walk and the walk along N against the default static walk
#      (8 mid K >= 1024 shapes, two seeds), their LRC merges, and their GPU tests.
#   2. Session 47's card-tune.sh for the rest of the call: on an H200 session 43's twin tune from
#      session 29's database, on an H100 raster groups 1, 2, 4 on the short K >= 1024 shapes from
#      session 42's database, both carried to this tree's kernel source. Either table succeeds
#      tables/h200.json or tables/h100.json.
# CALL_S: the call's seconds (default 570). Carries build/carry.tar.xz, build/tunedb-h200.tar.xz
# and build/tunedb-h100.tar.xz; run `scripts/device_tree.sh slim` first.
CALL_S=${CALL_S:-570}
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
CALL=call1 bash bench/results/2026-12-07-session48/commands/walk.sh
rm -rf $OUT/call1
exec env CALL_S=$((CALL_S - SECONDS)) bash bench/results/2026-12-07-session47/commands/card-tune.sh
