# Session 44, call 4 (an H100): the library with the tables/h100.json that call 2's twin tune made
# (the uniform warpgroup index's twins in the finals) on the whole grid, gpu mode, both layouts,
# against cuBLASLt-autotune: issue 5's H100 figure, 1.042x with session 42's table (its call 3,
# the same command).
CALL=${CALL:-call4}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
echo "library (tables/h100.json) on the grid for ${LEFT_S} s"
env OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h100.json NAME=lib-grid LIB_SHAPES="--shapes grid" \
  IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$LEFT_S scripts/gpu_round.sh lib 2>&1 | tail -30
q; pack
rm -rf $R; ls -la $OUT
