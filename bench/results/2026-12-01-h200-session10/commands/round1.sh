set -uo pipefail
export PYTHONUNBUFFERED=1
# Binaries of this session's working tree, built on the CPU machine (scripts/build.sh), stripped.
export GEMMFORGE_BIN=build/bin-carry
B=$GEMMFORGE_BIN
# Every GPU test (the whole suite last ran in session 8), and the tuner's planted-kernel tests.
timeout 110 $B/gemmforge_gpu_tests > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
timeout 45 $B/gemmforge_tune_gpu_tests > $OUT/tune_gpu_tests.log 2>&1; echo "tune gpu tests exit $?"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/tune_gpu_tests.log | head
# Resume session 9's grid tune from its committed database (same GPU, kernel sources and
# protocol): problems whose cuBLASLt-autotune estimate is under 32 µs get 24 measurements, under
# 128 µs 16; the others keep their decisions (budget 6). Tiny shapes (all dims <= 512) keep theirs.
grep -v '^#' shapes/grid.txt | awk '!($1<=512 && $2<=512 && $3<=512)' > $OUT/grid-not-tiny.txt
DB_CSV=bench/results/2026-11-30-h200-session9/tune KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-grid \
  TUNE_SHAPES="--shapes $OUT/grid-not-tiny.txt" PRIOR="tables/h200.json" \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16" TIME_LIMIT_S=370 LIMIT_S=430 scripts/gpu_round.sh tune 2>&1 | tail -40
cp $OUT/tune/table.summary.json $OUT/tune/table.decisions.csv $OUT/ 2>/dev/null
tar czf $OUT/tune-db.tar.gz -C $OUT/tune db tune-grid.log table.json
rm -rf $OUT/tune $OUT/grid-not-tiny.txt
ls -la $OUT
