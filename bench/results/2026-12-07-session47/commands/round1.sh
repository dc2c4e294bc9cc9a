# Session 47, call 1 (either card, ~1.5 min; on an H200 it then runs the twin tune to ~570 s).
#   1. Session 46's next-dw.sh (its round4.sh as call1): the committed one-ahead dynamic walk
#      (a cluster takes tile i+1 when its producer starts tile i) timed against the static builds
#      on the 8 mid K >= 1024 shapes (two seeds), its LRC counters on 8192^2x1024 (groups 1, auto),
#      and Sm90Kernel.DynamicWalkPassesTheGate.
#   2. H200 only: session 43's h200-twin-tune.sh (as call1-tune) for the rest of the call; carries
#      build/tunedb-h200.tar.xz too.
# Carries build/carry.tar.xz (build/bin-ab); run `scripts/device_tree.sh slim` first.
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
CALL=call1 bash bench/results/2026-12-07-session46/commands/round4.sh
case "$name" in
  *H200*) env CALL=call1-tune CALL_S=$((570 - SECONDS)) bash bench/results/2026-12-07-session43/commands/h200-twin-tune.sh ;;
  *) echo "not an H200: no tune" ;;
esac
