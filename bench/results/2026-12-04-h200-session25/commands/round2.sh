# Session 25, call 2: call 1's sweep hung on its first shape (64x256x4096): a sliced split-K sum
# with 16 parts in clusters of 8 CTAs, of which fewer than 16 fit on the H200, so a cluster waited
# in the sum for a part it held for later. The build now refuses such a launch when it is prepared
# (src/runtime/sm90_kernel.cpp). (a) the new cluster GPU test, which launches that case and
# expects the refusal or a pass; (b) call 1's sweep with splits auto/8/12/14/16, under a hard
# time limit; (c) the traces of call 1 (c), the 4x2 launch at 12 parts.
source scripts/device_call.sh call2
C=bench/results/2026-12-04-h200-session25/commands
timeout -k 5 90 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.ClustersOfFourAndEight*' > $R/cluster_test.log 2>&1
echo "cluster test exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|OK \]|refused" $R/cluster_test.log | head
grep -m3 -A8 "Failure" $R/cluster_test.log | head -30
q
SHAPES="--shape 256x256x16384 --shape 256x256x8192 --shape 256x512x16384 --shape 256x512x8192 --shape 512x512x16384 --shape 512x512x8192 --shape 128x512x16384 --shape 512x128x16384 --shape 128x256x16384 --shape 256x128x8192 --shape 128x128x8192 --shape 64x256x4096"
timeout -k 5 200 $B/gemmforge bench $SHAPES --layout both --impl gemmforge,cublaslt-autotune --configs $C/tallk-clusters.json \
  --splits auto,8,12,14,16 --pdl on --mode gpu --finalists 6 --time-limit 170 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; grep -v "^\[compile\]\|^\[bench\]" $R/sweep.log | tail -40
q
timeout -k 2 40 $B/gemmforge trace --shape 256x256x16384 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k16_pdl \
  --kernel sm90_tn_f32_64x128x64_s6_c1_coop_4x2_mc_k12_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_2x2_mc_k16_pdl \
  --out $R/trace > $R/trace.log 2>&1
echo "trace exit $? $(date +%T)"; head -70 $R/trace.log
q
