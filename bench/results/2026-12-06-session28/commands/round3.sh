# Session 28, call 3 (kernel source 0ac75eb2: the pushed sum loads every part's value at once):
# the pushed and pulled in-cluster GPU tests again; then, on an H200 only (the database and table
# are its): one A/B run of the same in-cluster launches with cuBLASLt-autotune beside them; the
# grid tuned again from session 27's database carried on the CPU to this source (build/carried-db:
#   build/bin/gemmforge db import --dir <session 27 call1.tar.gz: call1/tune/db> --db /tmp/c28.sqlite
#   git worktree add /tmp/old d7dd31d && build/bin/gemmforge db carry --db /tmp/c28.sqlite \
#     --from-kernels /tmp/old/kernels --table <d7dd31d:tables/h200.json> --table-out tables/h200.json
#   then only this source's rows kept (commands/prune_db.sql) and gemmforge db export --dir build/carried-db)
# with --cluster-push twins of every in-cluster finalist (session 27's options otherwise); then the
# library, gpu mode, on the shapes whose entry changed with the shipped table (carried) and the new
# one, then on the tall-K shapes with the new one.
# TESTS=0 / AB=0 skip the GPU tests / the A/B (done on an H100 in calls 3-4 when no H200 came).
source scripts/device_call.sh call3
C=bench/results/2026-12-06-session28/commands
pack() { tar czf $OUT/call3.tar.gz -C $OUT call3; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
[ "${TESTS:-1}" = 1 ] && timeout -k 5 120 $B/gemmforge_gpu_tests \
  --gtest_filter='Sm90Kernel.SplitKPushed*:Sm90Kernel.SplitKSummedInsideACluster*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure" $R/gpu_tests.log | head
q; pack
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200: no A/B, tune or library run"; pack; rm -rf $R; exit 0; }
S="--shape 64x64x4096 --shape 64x64x16384 --shape 64x128x8192 --shape 128x128x4096 --shape 128x128x8192 --shape 256x64x2048"
S="$S --shape 64x512x4096 --shape 128x256x4096 --shape 128x64x12288 --shape 64x64x1024 --shape 256x128x4096 --shape 64x256x2048"
S="$S --shape 64x128x12288 --shape 512x64x2048 --shape 128x64x8192 --shape 64x256x8192"
[ "${AB:-1}" = 1 ] && timeout -k 5 100 $B/gemmforge bench $S --layout both --impl gemmforge,cublaslt-autotune --configs $C/in-cluster.json \
  --splits auto,8,16 --cluster-reduction on --pdl on --mode gpu --finalists 1 --time-limit 80 --out $R/ab-1 > $R/ab-1.log 2>&1
echo "ab exit $? $(date +%T)"
python3 scripts/ab_twins.py _push $R/ab-1 > $R/ab.txt 2>&1; tail -5 $R/ab.txt
q; pack
TUNE_S=$(( ${CALL_S:-545} - SECONDS - 2 * ${LIB_S:-40} - 80 ))
echo "tune for ${TUNE_S} s"
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-push \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --parts-apart --cluster-push" \
  TIME_LIMIT_S=$TUNE_S LIMIT_S=$((TUNE_S + 25)) scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q; pack
# The library where the new table serves something else than the shipped one (changed-shapes.txt,
# both layouts), with each table, then the tall-K shapes with the new table.
[ -f $R/tune/table.json ] && python3 $C/changed_shapes.py $R/tune/table.json tables/h200.json > $R/changed-shapes.txt
echo "$(grep -vc '^#' $R/changed-shapes.txt 2>/dev/null) shapes changed"
for v in after before; do
  if [ $v = before ]; then t=tables/h200.json; else t=$R/tune/table.json; fi
  [ -s $R/changed-shapes.txt ] || continue
  OUT=$R GEMMFORGE_BIN=$B TABLE=$t NAME=lib-changed-$v LIB_SHAPES="--shapes $R/changed-shapes.txt" \
    IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=${LIB_S:-40} scripts/gpu_round.sh lib 2>&1 \
    | grep -E "\(best\) +cublaslt-autotune +(all|tall-K|mid) |exit" | head -6
  q; pack
done
left=$(( ${CALL_S:-545} + 25 - SECONDS )); [ $left -gt 60 ] && left=60
[ -f $R/tune/table.json ] && [ $left -ge 30 ] && OUT=$R GEMMFORGE_BIN=$B TABLE=$R/tune/table.json NAME=lib-tallk \
  LIB_SHAPES="--shapes shapes/tall-k.txt" IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$left \
  scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublaslt-autotune +(all|tall-K) |exit" | head -4
q
pack; rm -rf $R; ls -la $OUT
