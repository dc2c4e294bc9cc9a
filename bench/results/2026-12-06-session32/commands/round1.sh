# Session 32, call 1 (an H100 only: the table this makes is the H100's): gemmforge tune on the
# whole grid, both layouts, from an empty database, each problem seeded by the kernel the H200's
# shipped table serves it (--prior tables/h200.json) and the best kernels of its two nearest
# decided problems; budget 3 (6 under 32 µs of cuBLASLt-autotune). Stops starting shapes after
# TIME_LIMIT_S; call 2 resumes from the database this call exports (call1/tune/db).
source scripts/device_call.sh call1
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
grep -q '"gpu": "NVIDIA H100' $R/env.json || { echo "not an H100: nothing run"; pack; rm -rf $R; exit 0; }
OUT=$R GEMMFORGE_BIN=$B KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune \
  TUNE_SHAPES="--shapes grid" PRIOR=tables/h200.json BUDGET=3 \
  TUNE_ARGS="--seeds 0 --neighbour-seeds 2 --budget-under 32:6" \
  TIME_LIMIT_S=${TIME_LIMIT_S:-470} LIMIT_S=${LIMIT_S:-545} scripts/gpu_round.sh tune 2>&1 | tail -14
rm -f $R/tune/tune.sqlite*
q; pack; rm -rf $R; ls -la $OUT
