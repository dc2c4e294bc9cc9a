# Session 47, call 1 (either card; ~1.5 min, then a tune to ~570 s). Not run: no device came in
# session 47 or 48; session 48's round1.sh replaces it (its kernels changed, so this call's carry
# was rebuilt).
#   1. Session 46's next-dw.sh (its round4.sh as call1): the committed one-ahead dynamic walk
#      (a cluster takes tile i+1 when its producer starts tile i) timed against the static builds
#      on the 8 mid K >= 1024 shapes (two seeds), its LRC counters on 8192^2x1024 (groups 1, auto),
#      and Sm90Kernel.DynamicWalk*.
#   2. card-tune.sh for the rest of the call: the H200 twin tune, or the H100 raster tune.
# CALL_S: the call's seconds (default 570). Carries build/carry.tar.xz (build/bin-ab),
# build/tunedb-h200.tar.xz and build/tunedb-h100.tar.xz; run `scripts/device_tree.sh slim` first.
CALL_S=${CALL_S:-570}
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
CALL=call1 bash bench/results/2026-12-07-session46/commands/round4.sh
exec env CALL_S=$((CALL_S - SECONDS)) bash bench/results/2026-12-07-session47/commands/card-tune.sh
