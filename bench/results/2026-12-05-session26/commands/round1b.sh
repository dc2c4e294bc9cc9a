# Session 26, call 1b: round1.sh cut to the device time left after 13 refused starts (~400 s):
# no sweep; the cluster test, the tall-K problems reopened with --cluster-twins, then the library
# on tall-K with the new table and the shipped one. The archive is rewritten after each step, so a
# call cut off by its limit still brings back what it finished.
source scripts/device_call.sh call1
# build/carried-db (carried with the call): session 24's database carried to this kernel source, made
# on the CPU (~15 min; not committed, it is derived):
#   build/bin/gemmforge db import --dir bench/results/2026-12-04-h200-session24/call1/tune/db --db /tmp/c.sqlite
#   git worktree add /tmp/old 62cf921 && build/bin/gemmforge db carry --db /tmp/c.sqlite --from-kernels /tmp/old/kernels
#   build/bin/gemmforge db export --db /tmp/c.sqlite --dir build/carried-db
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; [ -f $R/tune/table.json ] && cp $R/tune/table.json $OUT/table-tallk.json; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json; grep -A6 residency $R/env.json
# On another card (the database and table are the H200's): round1's tall-K cluster sweep alone.
SHAPES="--shape 256x256x16384 --shape 256x512x16384 --shape 512x512x16384 --shape 128x256x16384 --shape 256x128x8192 --shape 64x256x4096"
grep -q '"gpu": "NVIDIA H200' $R/env.json || {
  echo "not an H200: the sweep only"
  timeout -k 5 $((${SWEEP_S:-90} + 25)) $B/gemmforge bench $SHAPES --layout tn --impl gemmforge,cublaslt-autotune \
    --configs bench/results/2026-12-04-h200-session25/commands/tallk-clusters.json --splits auto,8,12 --pdl on --mode gpu \
    --finalists 6 --time-limit ${SWEEP_S:-90} --out $R/sweep > $R/sweep.log 2>&1
  echo "sweep exit $?"; grep -v "^\[compile\]\|^\[bench\]" $R/sweep.log | tail -25; q; pack; exit 0; }
timeout -k 5 60 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.ClustersOfFourAndEight*' > $R/cluster_test.log 2>&1
echo "cluster test exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]|refused" $R/cluster_test.log | head -5
q; pack
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 \
  CONFIGS=bench/configs/tune-both.json LOG=tune-cluster-twins TUNE_SHAPES="--shapes shapes/tall-k.txt" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --cluster-twins 2x2,4x2,2x4" \
  TIME_LIMIT_S=${TUNE_S:-100} LIMIT_S=$((${TUNE_S:-100} + 25)) scripts/gpu_round.sh tune 2>&1 | tail -12
rm -f $R/tune/tune.sqlite*
q; pack
for v in after before; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune \
    MODES=gpu LIMIT_S=${LIB_S:-50} scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -6
  q; pack
done
rm -rf $R; ls -la $OUT
