# Session 36, call 5 (asked of an H200). The skinny grid (96 shapes, both layouts) on the H200
# with session 35's skinny-clusters.json (the tune's winners and 50 cluster/multicast tiles the
# H200 table's tune never saw): a bench sweep, gated, finalists re-timed beside
# cuBLASLt-autotune (session 35's call 3 on the H100: best of ours 0.931×); on an H100 (done there
# in session 35) no sweep. First the TraceLaunch (the main-loop ablations), Runtime and C API GPU
# tests (the tables re-keyed by db carry), then the sweep. Cubins compiled on the CPU machine are carried (build/kc36b).
source scripts/device_call.sh call5
pack() { tar cJf $OUT/call5.tar.xz -C $OUT call5; }
tar xJf build/kc36b.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc36b/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 200 $B/gemmforge_gpu_tests --gtest_filter='TraceLaunch*:Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $?"; tail -1 $R/gpu_tests.log
q; pack
grep -q '"gpu": "NVIDIA H200' $R/env.json && timeout -k 5 200 $B/gemmforge bench --impl gemmforge,cublaslt-autotune \
  --configs bench/results/2026-12-06-session35/commands/skinny-clusters.json \
  --shapes shapes/skinny.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 4 \
  --time-limit 180 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; grep -h "gemmforge (best)\|gemmforge (nn)\|gemmforge (tn)" $R/sweep/summary.md 2>/dev/null | head -3
q; pack
rm -rf $R; ls -la $OUT
