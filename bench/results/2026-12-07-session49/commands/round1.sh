# Session 49, call 1 (either card; CALL_S seconds, default 570): card-tune.sh (on every card the
# decided problems whose finals missed a faster candidate measured since, `tune --refinal-stale`;
# on an H200 also session 43's twin tune). Carries build/carry.tar.xz (this tree's build as
# build/bin-ab), build/tunedb-h200.tar.xz (session 29's database) and build/tunedb-h100.tar.xz
# (session 48's raster-tuned one), both at kernel source 8fec73c0; `scripts/device_tree.sh slim` first.
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
exec env CALL=call1 bash bench/results/2026-12-07-session49/commands/card-tune.sh
