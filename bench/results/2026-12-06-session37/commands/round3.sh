# Session 37, call 3 (an H200: the database and the table are the H200's). `gemmforge tune
# --ksplit-twins` reopens the decided problems of commands/ksplit-tune-shapes.txt whose two fastest
# candidates include a one-consumer kernel: each such finalist is measured again with two k-split
# consumers, and the final against cuBLASLt-autotune is run again. The database is session 29's
# (bench/results/2026-12-06-session29/call1.tar.gz: call1/tune/db), carried on the CPU machine to
# this kernel source by `gemmforge db carry` (all 2188 candidates build to the same code; carried
# as build/tunedb.tar.xz). The tune stops starting problems after its time limit; the database
# comes back (call3/tune.sqlite) so a later call goes on.
source scripts/device_call.sh call3
C=bench/results/2026-12-06-session37/commands
pack() { tar cJf $OUT/call3.tar.xz -C $OUT call3; }
tar xJf build/tunedb.tar.xz && cp build/tunedb/tune.sqlite $R/tune.sqlite
[ -f build/kc37.tar.xz ] && tar xJf build/kc37.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc37/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  timeout -k 10 ${TUNE_S:-540} $B/gemmforge tune --db $R/tune.sqlite --shapes $C/ksplit-tune-shapes.txt --layout both \
    --ksplit-twins --time-limit ${TUNE_LIMIT_S:-480} --out $R/table.json > $R/tune.log 2>&1
  echo "tune exit $? $(date +%T) ${SECONDS}s"; grep -E "^\[tune\] done|reopened" $R/tune.log | tail -3
fi
q; pack; rm -rf $R; ls -la $OUT
