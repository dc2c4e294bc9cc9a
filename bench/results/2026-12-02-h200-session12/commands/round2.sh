# Session 12, call 2: the uniform-walk kernels (uf, build/kernels-uf: the warpgroup index
# broadcast from lane 0, a __syncwarp() in the walk's increment that every `continue` passes, and
# setmaxnreg.dec in the producer of one-consumer configs too; what each fixes is in
# bench/NOTES.md, session 12) against the committed kernels (v0), alternating runs (3 each);
# then the Hopper kernel's GPU tests with uf.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session12/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
TN="--shape 2048x128x8192 --shape 1024x4096x1024 --shape 4096x4096x1024 --shape 2048x2048x2048 --shape 8192x8192x1024
    --shape 64x4096x8192 --shape 128x1024x16384 --shape 4096x128x4096 --shape 256x256x8192 --shape 64x64x4096"
NN="--shape 2048x256x8192 --shape 2048x256x2048 --shape 64x1024x16384 --shape 128x1024x16384 --shape 1024x1024x2048
    --shape 512x2048x4096 --shape 4096x4096x1024 --shape 64x16384x16384 --shape 512x512x8192"
VARIANTS="v0 uf"
for rep in 1 2 3; do
  for v in $VARIANTS; do
    export GEMMFORGE_CACHE_DIR=/tmp/kc-$v
    if [ $v = v0 ]; then unset GEMMFORGE_DATA_DIR; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-$v; fi
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 150 $B/gemmforge bench $S --layout $lay --impl gemmforge,cublaslt-autotune --configs $C/ab2-$lay.json --splits 1,auto \
        --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
python3 scripts/ab_sweeps.py $(for v in $VARIANTS; do printf "%s=" $v; ls -d $OUT/*-$v-* | grep -v log | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -12 $OUT/ab.txt
GEMMFORGE_DATA_DIR=$PWD/build/kernels-uf GEMMFORGE_CACHE_DIR=/tmp/kc-uf timeout 200 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*' > $OUT/uf_gpu_tests.log 2>&1
echo "uf Sm90Kernel tests exit $?"; grep -E "^\[  (PASSED|FAILED)|FAILED  \]|OK \]" $OUT/uf_gpu_tests.log | head -20
cd $OUT && tar czf /tmp/call2.tar.gz . && rm -rf $OUT/* && mv /tmp/call2.tar.gz $OUT/ && ls -la $OUT
