# Session 50, call 1 (either card; CALL_S seconds, default 570). Carries build/carry.tar.xz (this
# tree's build as build/bin-ab), build/tunedb-h100.tar.xz (session 49 call 1's database) and, once
# its carry on the CPU is done, build/tunedb-h200.tar.xz (session 29's, at kernel source 8fec73c0);
# `scripts/device_tree.sh slim` first.
#   H100: session 49's next-round1.sh, H100 branch: `tune --raster-groups 1,2,4 --refinal-stale` on
#         the 304 mid problems with every dimension >= 1024 (issue 3's mid figure).
#   H200 with its database here: next-round1.sh's H200 branch (session 43's twin tune with
#         `--refinal-stale` on the grid). Without it: session 49's lib-grid.sh with tables/h200.json
#         (issue 5's H200 figure under today's code; the last is session 29's), then the GPU tests
#         in eight shards, the Runtime tests among them (session 49's memset mends).
S49=bench/results/2026-12-07-session49/commands
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $card"
case "$card" in
  *H200*) [ -f build/tunedb-h200.tar.xz ] || exec env CALL=call1 bash $S49/lib-grid.sh ;;
esac
exec bash $S49/next-round1.sh
