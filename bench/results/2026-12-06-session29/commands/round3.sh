# Session 29, call 3. On an H200: call 1 (round1.sh: the re-tune with push twins) instead.
# Otherwise (an H100): call 2 again with both sums of a shared tile (--shared-tile-sum both): call 2
# found stream-K 1.3-4.4x slower than the whole-tile launch with the sliced sum, where a part waits
# for every other part of its tile, and under stream-K a CTA's first tile is the previous CTA's last
# (a chain of waits through the grid); with the last-arriver sum no part waits. The same shapes,
# configs and launches as call 2 otherwise (every passing launch a finalist, cuBLASLt-autotune
# beside them).
C=bench/results/2026-12-06-session29/commands
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then exec bash $C/round1.sh; fi
source scripts/device_call.sh call3
pack() { tar czf $OUT/call3.tar.gz -C $OUT call3; }
[ -d build/kc-sk ] && mkdir -p $GEMMFORGE_CACHE_DIR && cp -r build/kc-sk/. $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 ${BENCH_S:-300} $B/gemmforge bench --shapes $C/streamk-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
  --configs $C/streamk-configs.json --splits 1,auto,sk --shared-tile-sum both --pdl on --mode gpu --finalists 21 --time-limit $(( ${BENCH_S:-300} - 20 )) \
  --out $R/sk > $R/sk.log 2>&1
echo "bench exit $? $(date +%T)"; tail -25 $R/sk.log
q; pack; rm -rf $R; ls -la $OUT
