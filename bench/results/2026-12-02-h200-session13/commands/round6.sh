# Session 13, call 6: the grid re-tuned after the deferred epilogue (commit 0aa25da), resumed from
# session 12's database carried on the CPU to these kernels (`gemmforge db carry`, twice: 6a17f7f
# -> e2eb291, the stamps, and e2eb291 -> 0aa25da, the deferral; derived/carry.txt): every result of
# a candidate whose code is unchanged is kept, so the tune measures again only the cooperative
# TMA-store tiles the deferral reaches, and decides again the problems that had measured one.
# Budget options as the database was tuned with; the shipped table's kernels as seeds.
set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-ab
S=bench/results/2026-12-02-h200-session13
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
DB_CSV=$S/tune-carried KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-deferred \
  TUNE_SHAPES="--shapes grid" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6" \
  TIME_LIMIT_S=450 LIMIT_S=520 scripts/gpu_round.sh tune 2>&1 | tail -30
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/tune/table.json $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-deferred.log
rm -rf $OUT/tune
ls -la $OUT
