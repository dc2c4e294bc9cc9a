# Session 39, call 2 (any Hopper card): the GPU tests with lean cluster sync in the space (f1b37ab):
# every multicast config of the Sm90Kernel tests also runs as its lean twin, the clusters of four
# and eight included (not run in call 1). First the kernel tests, then the runtime, C API, tuner
# and bench tests, then the rest if time is left. Binaries built on the CPU machine
# (build/carry.tar.xz); the device compiles the test kernels.
source scripts/device_call.sh call2
pack() { tar cJf $OUT/call2.tar.xz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
run_tests() {  # $1 name, $2 time limit (s), $3 gtest filter
  timeout -k 5 $2 $B/gemmforge_gpu_tests --gtest_filter="$3" > $R/gpu_tests-$1.log 2>&1
  echo "gpu tests $1 exit $? $(date +%T) ${SECONDS}s"
  grep -E "^\[  (PASSED|FAILED) |FAILED  \]|launches through the gate" $R/gpu_tests-$1.log | head -20
}
run_tests kernels 330 'Sm90Kernel*'
q; pack
run_tests library 150 'Runtime*:CApi*:TuneOnGpu*:BenchSweep*'
q; pack
[ $SECONDS -lt 480 ] && run_tests rest $((560 - SECONDS)) 'Gate*:Baselines*:Sm80Kernel*:ShapeSpecialization*:TraceLaunch*'
q; pack
rm -rf $R; ls -la $OUT
