set -uo pipefail
export PYTHONUNBUFFERED=1
# build/tune-carry/priors/NAME.csv = the sweep.csv inside bench/results/2026-11-29-h200-issue4-classes/{skinny,tall-k,tiny}.tar.gz,
# 2026-11-29-h200-session6/tall-k-dsm.tar.gz and 2026-11-29-h200-session8/small-k-new.tar.gz (carried to the device).
P=build/tune-carry/priors
# Resume the grid tune of call 2 (its database), now without --specialize (the tiny shapes it
# reached were specialized there).
DB_FROM=build/tune-carry/tune9.sqlite KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-grid-2 TUNE_SHAPES="--shapes grid" \
  PRIOR="tables/h200.json $P/skinny.csv $P/tall-k.csv $P/tall-k-dsm.csv $P/small-k-new.csv" TIME_LIMIT_S=530 LIMIT_S=575 scripts/gpu_round.sh tune 2>&1 | tail -40
gzip -c $OUT/tune/tune.sqlite > $OUT/tune.sqlite.gz
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/ 2>/dev/null
tar czf $OUT/tune-logs.tar.gz -C $OUT tune/tune-grid-2.log
rm -rf $OUT/tune
ls -la $OUT
