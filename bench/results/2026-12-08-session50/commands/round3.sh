# Prepared in session 50 for a later session (either card; CALL_S seconds, default 570): session
# 49's card-tune.sh on the grid with `--neighbour-evidence 4` beside its `--refinal-stale`: after
# the problems, every decided problem is measured (estimate mode) with the best kernels of its four
# nearest decided problems that it never measured, and decided again where one ranks among its
# finalists. On an H100 from session 50 call 1's database (carry it as build/tunedb-h100.tar.xz:
# call1/tune/db of this folder's call1.tar.xz, gunzipped into build/dbraw); on an H200 after
# round2.sh's twin tune (its call's tune/db, the same way, as build/tunedb-h200.tar.xz), else with
# the twins too. Its tune/table.json succeeds tables/<card>.json if its served figure is not lower.
# Carries build/carry.tar.xz (a build with --neighbour-evidence); `scripts/device_tree.sh slim` first.
echo "card: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
exec env CALL=${CALL:-call1} EXTRA="--neighbour-evidence 4 ${EXTRA:-}" \
  bash bench/results/2026-12-07-session49/commands/card-tune.sh
