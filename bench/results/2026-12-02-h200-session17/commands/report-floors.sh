# Session 18 (CPU, after call 2): session 16's whole-grid library run set against the floors of
# the ceilings call 2 measured (what a warm L2 keeps, wgmma alone at the power cap).
set -euo pipefail
mkdir -p /tmp/g16 && tar xzf bench/results/2026-12-02-h200-session16/call2/lib-grid.tar.gz -C /tmp/g16
S=bench/results/2026-12-02-h200-session17
gemmforge report /tmp/g16/lib-grid/results.json --floors $S/call2/ceilings/ceilings.json \
  --markdown $S/derived/lib-grid-floors.md --floors-csv $S/derived/lib-grid-floors.csv
gzip -f $S/derived/lib-grid-floors.csv
