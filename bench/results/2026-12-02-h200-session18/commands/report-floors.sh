# Session 18 (CPU, after call 2): session 16's whole-grid library run set against the floors of
# call 2's ceilings (L2's write rate now measured).
set -euo pipefail
mkdir -p /tmp/g16 && tar xzf bench/results/2026-12-02-h200-session16/call2/lib-grid.tar.gz -C /tmp/g16
S=bench/results/2026-12-02-h200-session18
gemmforge report /tmp/g16/lib-grid/results.json --floors $S/call2/ceilings/ceilings.json \
  --floors-csv $S/derived/lib-grid-floors.csv > $S/derived/lib-grid-floors.txt
gzip -f $S/derived/lib-grid-floors.csv
