# Session 21, call 1: (a) the ping-pong hand-over at issue (working tree) against the committed
# kernels (build/kernels-old = 61f2120's kernels/, through GEMMFORGE_DATA_DIR), alternating, on
# small-K shapes where a unit is one to four k-blocks, and a K = 1024 control; the cooperative
# 128x256 builds to the same cubin in both (a control of the run's drift). (b) The raster group
# of the 64x256 ping-pong tile on three store-bound shapes (a launch knob: the same cubin).
# (c) gemmforge trace with the new kernels (the turn stamps). (d) the Sm90Kernel GPU tests.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
B=build/bin-ab
C=bench/results/2026-12-03-h200-session21/commands
export GEMMFORGE_CACHE_DIR=/tmp/kc
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $OUT/clocks.csv; q
SHAPES="--shape 16384x16384x64 --shape 16384x16384x128 --shape 8192x8192x64 --shape 8192x8192x128 --shape 16384x8192x64 --shape 4096x4096x64 --shape 4096x4096x128 --shape 8192x8192x256 --shape 16384x4096x256 --shape 4096x4096x1024"
ab() {  # variant rep impls
  if [ $1 = old ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old; else unset GEMMFORGE_DATA_DIR; fi
  timeout 150 $B/gemmforge bench $SHAPES --layout tn --impl $3 --configs $C/ab-tn.json --pdl on --mode gpu \
    --out $OUT/ab-$1-$2 > $OUT/ab-$1-$2.log 2>&1; echo "ab $1 $2 exit $? $(date +%T)"
}
ab old 1 gemmforge,cublaslt-autotune; ab new 1 gemmforge; ab old 2 gemmforge; ab new 2 gemmforge,cublaslt-autotune
unset GEMMFORGE_DATA_DIR
q
for v in old new; do
  if [ $v = old ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old; else unset GEMMFORGE_DATA_DIR; fi
  timeout 90 $B/gemmforge bench --shape 16384x16384x64 --shape 8192x8192x128 --layout nn --impl gemmforge --configs $C/ab-nn.json \
    --pdl on --mode gpu --out $OUT/abnn-$v > $OUT/abnn-$v.log 2>&1; echo "abnn $v exit $? $(date +%T)"
done
export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old
timeout 90 $B/gemmforge bench --shape 16384x16384x64 --shape 16384x16384x128 --shape 8192x8192x64 --layout tn --impl gemmforge \
  --configs $C/raster-tn.json --group-m auto,1,2,4,8,16,64 --pdl on --mode gpu --out $OUT/raster > $OUT/raster.log 2>&1; echo "raster exit $? $(date +%T)"
unset GEMMFORGE_DATA_DIR
q
timeout 120 $B/gemmforge trace --shape 16384x16384x64 --shape 16384x16384x128 \
  --kernel sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore_pdl \
  --kernel sm90_tn_f32_128x128x64_s4_c2_pingpong_1x2_mc_tmastore_pdl --out $OUT/trace > $OUT/trace.log 2>&1; echo "trace exit $? $(date +%T)"
timeout 200 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*' > $OUT/sm90_tests.log 2>&1; echo "sm90 tests exit $? $(date +%T)"
grep -E "^\[  (PASSED|FAILED) |FAILED" $OUT/sm90_tests.log | head
q
python3 scripts/ab_sweeps.py old=$OUT/ab-old-1,$OUT/ab-old-2 new=$OUT/ab-new-1,$OUT/ab-new-2 > $OUT/ab.txt 2>&1; cat $OUT/ab.txt
python3 scripts/ab_sweeps.py old=$OUT/abnn-old new=$OUT/abnn-new 2>&1 | tail -8
grep -v "^\[" $OUT/trace.log | head -60
cd $OUT && for d in ab-old-1 ab-old-2 ab-new-1 ab-new-2 abnn-old abnn-new raster trace; do [ -d $d ] && tar czf $d.tar.gz $d && rm -rf $d; done; ls -la $OUT
