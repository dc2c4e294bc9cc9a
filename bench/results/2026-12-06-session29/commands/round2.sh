# Session 29, call 2. On an H200: call 1 (round1.sh: the re-tune with push twins) instead.
# Otherwise (an H100, which has the H200's 132 SMs): does stream-K now pay where the output tiles
# leave SMs idle? The 16 shapes of streamk-shapes.txt (both layouts), 7 large-tile configs
# (streamk-configs.json, compiled there when build/kc-sk is not carried) each launched whole, split
# as auto_splits says, and stream-K (--splits 1,auto,sk), all with PDL, every passing launch a
# finalist, cuBLASLt-autotune beside them in the same interleaved rounds; first the split-K and
# stream-K GPU tests (gate, determinism).
C=bench/results/2026-12-06-session29/commands
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then exec bash $C/round1.sh; fi
source scripts/device_call.sh call2
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
[ -d build/kc-sk ] && mkdir -p $GEMMFORGE_CACHE_DIR && cp -r build/kc-sk/. $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 120 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitKAndStreamK*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure" $R/gpu_tests.log | head
q; pack
timeout -k 5 ${BENCH_S:-300} $B/gemmforge bench --shapes $C/streamk-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
  --configs $C/streamk-configs.json --splits 1,auto,sk --pdl on --mode gpu --finalists 21 --time-limit $(( ${BENCH_S:-300} - 20 )) \
  --out $R/sk > $R/sk.log 2>&1
echo "bench exit $? $(date +%T)"; tail -25 $R/sk.log
q; pack; rm -rf $R; ls -la $OUT
