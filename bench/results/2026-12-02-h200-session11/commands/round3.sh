# Session 11, call 3: the tune resumed from session 10's database (kernels unchanged: the same
# kernel-source hash) on the 285 split-region grid shapes (split-region-shapes.txt), with
# --split-seeds, budgets raised so every problem there gets 6-10 more measurements; then the
# library on those shapes with the shipped table and with the new one, one after the other.
set -uo pipefail
export PYTHONUNBUFFERED=1
export GEMMFORGE_BIN=build/bin-carry
D=bench/results/2026-12-02-h200-session11
S10=bench/results/2026-12-01-h200-session10
DB_CSV=$S10/tune-call3 KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-split-seeds BUDGET=16 \
  TUNE_SHAPES="--shapes $D/split-region-shapes.txt" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:34 --budget-under 128:26 --split-seeds bench/configs/split-seeds.json" TIME_LIMIT_S=270 LIMIT_S=310 \
  scripts/gpu_round.sh tune 2>&1 | tail -24
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-split-seeds.log table.json
TABLE=tables/h200.json LIB_SHAPES="--shapes $D/split-region-shapes.txt" MODES=gpu NAME=lib-split-before IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=110 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -6
TABLE=$OUT/tune/table.json LIB_SHAPES="--shapes $D/split-region-shapes.txt" MODES=gpu NAME=lib-split-after IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=110 scripts/gpu_round.sh lib 2>&1 | grep "gemmforge-lib (best)" | head -6
rm -rf $OUT/tune
cd $OUT && tar czf /tmp/call3.tar.gz . && rm -rf $OUT/* && mv /tmp/call3.tar.gz $OUT/ && ls -la $OUT
