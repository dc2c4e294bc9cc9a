# Prepared in session 49 for the next session's first call (either card; CALL_S seconds, default
# 570). Carries build/carry.tar.xz (the tree's build as build/bin-ab), build/tunedb-h200.tar.xz
# (session 29's database at kernel source 8fec73c0) and build/tunedb-h100.tar.xz (call 1's, after
# `--refinal-stale`); `scripts/device_tree.sh slim` first.
#   H200: card-tune.sh as call 1 ran it on the H100, H200 branch: session 43's twins and
#         `--refinal-stale` on the grid (206 stale problems in session 29's database). Its
#         tune/table.json succeeds tables/h200.json; then commands/lib-grid.sh with it.
#   H100: `tune --raster-groups 1,2,4 --refinal-stale` on the 304 mid problems with every
#         dimension >= 1024 (issue 3's mid figure, 0.928x in call 1's decisions, took the
#         automatic group only there; session 48: groups gave +6.7% on short K >= 1024 launches).
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
C=bench/results/2026-12-07-session49/commands
case "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" in
  *H200*) exec env CALL=call1 bash $C/card-tune.sh ;;
  *) exec env CALL=call1 SHAPES=bench/results/2026-12-07-session48/commands/mid-1024-shapes-h100.txt \
       EXTRA="--raster-groups 1,2,4" bash $C/card-tune.sh ;;
esac
