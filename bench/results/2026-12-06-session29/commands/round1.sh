# Session 29, call 1 (kernel source f97057b4, as session 28's last commit), on an H200 only (the
# database and table are its): the grid tuned again from session 27's database carried to this
# source (build/carried-db, made as session 28's round3.sh header says) with the push twin of every
# in-cluster finalist (--cluster-push; session 27's options otherwise); then the library, gpu mode,
# on the shapes whose entry changed between the shipped table and the new one, with each table;
# then the tall-K shapes with the new one. Session 28's round3.sh without its GPU tests and A/B.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session28/commands
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H200' $R/env.json || { echo "not an H200: nothing run"; pack; rm -rf $R; exit 0; }
TUNE_S=$(( ${CALL_S:-545} - SECONDS - 2 * ${LIB_S:-40} - 80 ))
echo "tune for ${TUNE_S} s"
OUT=$R GEMMFORGE_BIN=$B DB_CSV=build/carried-db KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-push \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json \
  TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6 --parts-apart --cluster-push" \
  TIME_LIMIT_S=$TUNE_S LIMIT_S=$((TUNE_S + 25)) scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q; pack
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
