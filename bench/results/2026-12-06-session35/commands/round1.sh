# Session 35, call 1 (any Hopper card). (1) The Runtime and C API GPU tests after session 34's
# final read (StagedOperands::run, never run on a GPU). (2) Skinny shapes: the tune's own winners
# there against tiles that share the big operand inside a 2- or 4-CTA cluster by TMA multicast
# (a cluster along the small side; for a small M in layout tn, swapped so M lands on wgmma's N),
# as cuBLASLt does on these shapes (its algo notes: 64x64 tile, 2-CTA cluster on 4096x128x4096);
# the tune's config list had multicast only on 128-row tiles. gpu mode, both layouts, split 1
# and 2, every candidate gated, 8 finalists re-timed beside cuBLASLt-autotune.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session35/commands
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is" $R/gpu_tests.log | head -30
q; pack
timeout -k 5 330 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/skinny-clusters.json \
  --shapes $C/skinny-probe.txt --layout both --mode gpu --splits 1,2 --pdl on --finalists 8 \
  --time-limit 300 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $? $(date +%T)"; tail -3 $R/sweep.log; q; pack
grep -h "gemmforge (best)\|cublaslt-autotune (best)" $R/sweep/summary.md | head -4
q; pack; rm -rf $R; ls -la $OUT
