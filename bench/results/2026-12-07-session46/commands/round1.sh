# Session 46, call 1 (either card). Dispatches on the card so that a call never idles:
#   H200: session 44's round2.sh H200 branch (session 43's h200-twin-tune.sh: the H200 twin tune
#         whose table succeeds tables/h200.json; carries build/tunedb-h200.tar.xz too).
#   H100: session 45's round3.sh (LRC counters of 128x176 ping-pong 2x1 group 1 and 1x2 auto/1
#         on 8192^2x1024 tn, then 2x1 against 1x2 timed on the mid K=1024 shapes).
# build/carry.tar.xz holds the build (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call1}
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
case "$name" in
  *H200*) exec env CALL=$CALL bash bench/results/2026-12-07-session43/commands/h200-twin-tune.sh ;;
  *) exec env CALL=$CALL bash bench/results/2026-12-07-session45/commands/round3.sh ;;
esac
