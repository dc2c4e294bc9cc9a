# Session 50, call 4 (asks for either card; runs only on an H200; CALL_S seconds, default 540):
# session 49's card-tune.sh, H200 branch: session 43's twin tune (`--space-twins
# --uniform-warpgroup-twins`) with `--refinal-stale` on the grid from session 29's database carried
# to kernel source 8fec73c0 (build/tunedb-h200.tar.xz). An H100 ran call 1's branch already, so on
# one this call stops after naming the card. Then, on the same warm H200, call 5: session 49's
# lib-grid.sh with call 4's table placed as its commands/table-h200.json (CALL=call5 LIB_S=400
# CALL_S=450: the library on the grid, no GPU tests).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
case "$card" in
  *H200*) exec env CALL=${CALL:-call4} CALL_S=${CALL_S:-540} bash bench/results/2026-12-07-session49/commands/card-tune.sh ;;
  *) echo "not an H200: nothing run" ;;
esac
