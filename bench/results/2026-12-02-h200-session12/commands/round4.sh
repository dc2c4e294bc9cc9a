# Session 12, call 4: the heavy problems' finals again (--refinal-heavy: six finalists at steady
# state instead of two, from the measurements already in the database; nothing new measured),
# resumed from session 11's database (the same kernels), on the 155 grid shapes whose
# cuBLASLt-autotune estimate is over 200 µs in either layout. The budget options are those the
# database's problems were tuned with, so no problem searches again.
set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-carry
S=bench/results/2026-12-02-h200-session12
DB_CSV=bench/results/2026-12-02-h200-session11/tune-call3 KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-refinal \
  TUNE_SHAPES="--shapes $S/heavy-shapes.txt" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --refinal-heavy --heavy-finalists 6 --no-rule-measurements" \
  TIME_LIMIT_S=400 LIMIT_S=470 scripts/gpu_round.sh tune 2>&1 | tail -30
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-refinal.log table.json
rm -rf $OUT/tune
cd $OUT && tar czf /tmp/call4.tar.gz . && rm -rf $OUT/* && mv /tmp/call4.tar.gz $OUT/ && ls -la $OUT
