# Session 27, call 1, second part (sourced by round1.sh on an H200 when ab_gate.py passes): the
# grid resumed under the lean finish's kernel source from session 24's database carried on the CPU
# (build/carried-db, carried with the call; not committed, it is derived:
#   build/bin/gemmforge db import --dir bench/results/2026-12-04-h200-session24/call1/tune/db --db /tmp/c.sqlite
#   git worktree add /tmp/old 62cf921 && build/bin/gemmforge db carry --db /tmp/c.sqlite --from-kernels /tmp/old/kernels
#   then, to fit the device's 64 MiB, only this source's rows kept (measurements and winners of
#   the other environments deleted, candidates nobody measured under it too; sqlite3 on a copy)
#   and build/bin/gemmforge db export --db /tmp/c-pruned.sqlite --dir build/carried-db)
# Every candidate that builds to the same code keeps its results; the problems that measured a
# parts-apart candidate lost their decisions and are tuned again, with --parts-apart twins of each
# split finalist (session 24's options). Then the library on the tall-K shapes (gpu mode, against
# cuBLASLt-autotune) with the shipped table and the new one. TUNE_S: the tune's time limit.
use v1
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-lean \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --parts-apart" \
  TIME_LIMIT_S=$TUNE_S LIMIT_S=$((TUNE_S + 25)) scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
cp $R/tune/table.json $OUT/table.json 2>/dev/null
q; pack
for v in after before; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune \
    MODES=gpu LIMIT_S=${LIB_S:-45} scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -6
  q; pack
done
