# Session 14, call 2: the in-cluster split-K sum cut evenly with 16-byte loads (v2: the working
# tree) against HEAD's kernels (v0: build/ab/v0/kernels): the split-K GPU tests with v2, traces of
# both (drain_us: the walk's end to exit, where the in-cluster sum runs), then the in-cluster
# launches of the same configs alternating (gpu mode, gated). Then, with HEAD's kernels, split-K
# with 2-CTA multicast clusters on the larger tall-K shapes, one run beside cuBLASLt-autotune.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry2.tar.xz && B=build/bin-ab
C=bench/results/2026-12-02-h200-session14/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
use() { export GEMMFORGE_CACHE_DIR=/tmp/kc-$1; if [ $1 = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0; else unset GEMMFORGE_DATA_DIR; fi; }
use v2
timeout 150 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitK*' > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $? $(date +%T)"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
t() { local name=$1; shift; timeout 100 $B/gemmforge trace "$@" --out $OUT/$name > $OUT/$name.log 2>&1; echo "$name exit $? $(date +%T)"; }
for v in v0 v2; do
  use $v
  t $v-dsm --shape 64x64x16384 --shape 64x64x4096 --kernel sm90_tn_f32_64x16x64_s4_c1_coop_1x1_k16_np_pdl_dsm --kernel sm90_tn_f32_64x32x64_s4_c1_coop_1x1_k16_np_pdl_dsm
  t $v-dsm-64 --shape 128x128x8192 --kernel sm90_tn_f32_64x64x64_s4_c1_coop_1x1_swap_k16_np_pdl_dsm --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k8_np_pdl_dsm
done
TN="--shape 64x64x4096 --shape 64x64x16384 --shape 64x64x2048 --shape 128x128x8192 --shape 128x64x12288 --shape 64x256x8192 --shape 512x64x4096 --shape 256x256x1024"
NN="--shape 256x256x1024 --shape 64x1024x1024 --shape 128x128x4096"
for rep in 1 2; do
  for v in v0 v2; do
    use $v
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 120 $B/gemmforge bench $S --layout $lay --impl gemmforge --configs $C/red-$lay.json --splits 4,8,16 \
        --cluster-reduction on --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
python3 scripts/ab_sweeps.py $(for v in v0 v2; do printf "%s=" $v; ls -d $OUT/*-$v-[12] | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -8 $OUT/ab.txt
use v0
timeout 150 $B/gemmforge bench --shape 128x256x8192 --shape 256x256x8192 --shape 256x512x16384 --shape 512x512x8192 --shape 512x512x16384 --shape 512x128x12288 \
  --layout tn --impl gemmforge,cublaslt-autotune --configs $C/mc-tn.json --splits 4,8,16 --pdl on --mode gpu --out $OUT/mc-tn > $OUT/mc-tn.log 2>&1; echo "mc tn exit $? $(date +%T)"
timeout 100 $B/gemmforge bench --shape 256x512x8192 --shape 512x512x16384 \
  --layout nn --impl gemmforge,cublaslt-autotune --configs $C/mc-nn.json --splits 4,8,16 --pdl on --mode gpu --out $OUT/mc-nn > $OUT/mc-nn.log 2>&1; echo "mc nn exit $? $(date +%T)"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
for f in $OUT/v*-dsm*.log; do echo "== $f"; grep -E "launch:|span|drain|unit_main" $f | cut -c1-90; done
cd $OUT && tar czf /tmp/call2.tar.gz . && rm -rf $OUT/* && mv /tmp/call2.tar.gz $OUT/ && ls -la $OUT
