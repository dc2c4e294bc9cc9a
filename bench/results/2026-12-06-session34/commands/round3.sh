# Session 34, call 3 (any Hopper card): the tuner's GPU tests, whose tables now keep the fastest
# kernel beside cuBLASLt entries (build_table -> add_fastest_kernels), and the table kernels'
# compile-ahead of both shipped tables (kernels --table: 47 more builds on the H200's).
source scripts/device_call.sh call3
pack() { tar czf $OUT/call3.tar.gz -C $OUT call3; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 200 $B/gemmforge_tune_gpu_tests > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is" $R/gpu_tests.log | head -30
q; pack
for t in h100 h200; do timeout 120 $B/gemmforge kernels --table tables/$t.json --compile > $R/compile-$t.log 2>&1; echo "$t: exit $? $(tail -1 $R/compile-$t.log)"; done
q; pack; rm -rf $R; ls -la $OUT
