# Session 26, call 1: session 25's call 2, which had no machine. (a) the environment, with the
# clusters of 2, 4 and 8 CTAs the occupancy calculator places (auto split counts are now sized by
# them); (b) the cluster GPU test, which launches 16-part sliced sums in clusters of 8 and expects
# the refusal or a pass; (c) the tall-K sweep of session 25 (the shipped table's split tiles, parts
# apart, against the same tiles in 2x2/4x1/4x2/2x4 clusters), splits auto/8/12/14/16, gpu mode,
# with cuBLASLt-autotune; (d) the tall-K grid shapes reopened with `tune --cluster-twins 2x2,4x2,2x4`
# from the carried database (session 24's, carried to this kernel source in session 25); (e) the
# runtime library on the tall-K shapes with the shipped table and with the new one, gpu mode,
# against cuBLASLt-autotune. The sweep has 100 s (what it reaches is written).
source scripts/device_call.sh call1
# build/carried-db (carried with the call): session 24's database carried to this kernel source, made
# on the CPU (~15 min; not committed, it is derived):
#   build/bin/gemmforge db import --dir bench/results/2026-12-04-h200-session24/call1/tune/db --db /tmp/c.sqlite
#   git worktree add /tmp/old 62cf921 && build/bin/gemmforge db carry --db /tmp/c.sqlite --from-kernels /tmp/old/kernels
#   build/bin/gemmforge db export --db /tmp/c.sqlite --dir build/carried-db
C=bench/results/2026-12-04-h200-session25/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json; grep -A6 residency $R/env.json
# The database and table are the H200's: on another card (the tool may lend an H100) only the sweep runs.
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200: the sweep only"; SWEEP_ONLY=1; [ "${SWEEP_S:-100}" -gt 0 ] || SWEEP_S=90; }
timeout -k 5 90 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.ClustersOfFourAndEight*' > $R/cluster_test.log 2>&1
echo "cluster test exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]|refused" $R/cluster_test.log | head
grep -m3 -A8 "Failure" $R/cluster_test.log | head -30
q
SHAPES="--shape 256x256x16384 --shape 256x256x8192 --shape 256x512x16384 --shape 256x512x8192 --shape 512x512x16384 --shape 512x512x8192 --shape 128x512x16384 --shape 512x128x16384 --shape 128x256x16384 --shape 256x128x8192 --shape 128x128x8192 --shape 64x256x4096"
# SWEEP_S=0 skips the sweep (the tune below measures the same twins on every tall-K problem).
[ "${SWEEP_S:-100}" -gt 0 ] && timeout -k 5 $((${SWEEP_S:-100} + 25)) $B/gemmforge bench $SHAPES --layout both --impl gemmforge,cublaslt-autotune --configs $C/tallk-clusters.json \
  --splits auto,8,12,14,16 --pdl on --mode gpu --finalists 6 --time-limit ${SWEEP_S:-100} --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; grep -v "^\[compile\]\|^\[bench\]" $R/sweep.log | tail -30
q
# SWEEP_ONLY=1 (or a card other than the H200 the table and database are for): stop after the sweep.
[ -n "${SWEEP_ONLY:-}" ] && { tar czf $OUT/call1.tar.gz -C $OUT call1 && rm -rf $R; ls -la $OUT; exit 0; }
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 \
  CONFIGS=bench/configs/tune-both.json LOG=tune-cluster-twins TUNE_SHAPES="--shapes shapes/tall-k.txt" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --cluster-twins 2x2,4x2,2x4" \
  TIME_LIMIT_S=${TUNE_S:-150} LIMIT_S=$((${TUNE_S:-150} + 30)) scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q
for v in before after; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-$v LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune \
    MODES=gpu LIMIT_S=${LIB_S:-70} scripts/gpu_round.sh lib 2>&1 | grep -E "  (all|tall-K) |exit" | head -8
done
q
cp $R/tune/table.json $OUT/table-tallk.json; tar czf $OUT/call1.tar.gz -C $OUT call1 && rm -rf $R; ls -la $OUT
