# Session 43, call 2 (an H200 only): the library with the new tables/h200.json (call 1's twin
# tune, shipped) on the whole grid, gpu mode, both layouts, against cuBLASLt-autotune (issue 5's
# figure: 1.038× with session 29's table), until the call's time is up. On another card: nothing.
CALL=${CALL:-call2}
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
LEFT_S=$(( ${CALL_S:-570} - SECONDS - 30 ))
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  echo "library (h200, tables/h200.json) on the grid for ${LEFT_S} s"
  env OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json NAME=lib-grid LIB_SHAPES="--shapes grid" \
    IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=$LEFT_S scripts/gpu_round.sh lib 2>&1 | tail -30
else
  echo "not an H200: nothing run"
fi
q; pack
rm -rf $R; ls -la $OUT
