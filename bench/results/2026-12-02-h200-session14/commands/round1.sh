# Session 14, call 1: the split-K reductions by phase (gemmforge trace, reduction stamps) with the
# old slice sums (v0: build/ab/v0/kernels, the loads batched as before) and the new ones (v1: the
# working tree, every part's loads in flight at once); the split-K GPU tests with v1; then the
# same configs untraced, v0 against v1 alternating (gpu mode, gated), splits 4, 8, 16, summed
# through global memory and inside a cluster.
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz && B=build/bin-ab
C=bench/results/2026-12-02-h200-session14/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
use() { export GEMMFORGE_CACHE_DIR=/tmp/kc-$1; if [ $1 = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0; else unset GEMMFORGE_DATA_DIR; fi; }
use v1
timeout 200 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitK*:TraceLaunch*' > $OUT/gpu_tests.log 2>&1; echo "gpu tests exit $? $(date +%T)"
grep -E "^\[  (PASSED|FAILED)|FAILED  \]" $OUT/gpu_tests.log | head
t() { local name=$1; shift; timeout 100 $B/gemmforge trace "$@" --out $OUT/$name > $OUT/$name.log 2>&1; echo "$name exit $? $(date +%T)"; }
for v in v0 v1; do
  use $v
  t $v-256x512 --shape 256x512x16384 --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_k16_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k4_pdl
  t $v-512x512 --shape 512x512x16384 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_k4_pdl --kernel sm90_tn_f32_64x64x64_s4_c1_coop_1x1_k16_pdl
  t $v-dsm --shape 64x64x16384 --shape 64x64x4096 --kernel sm90_tn_f32_64x16x64_s4_c1_coop_1x1_k16_np_pdl_dsm
  t $v-dsm-64 --shape 128x128x8192 --kernel sm90_tn_f32_64x64x64_s4_c1_coop_1x1_swap_k16_np_pdl_dsm --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k8_np_pdl_dsm
done
TN="--shape 64x64x4096 --shape 64x64x16384 --shape 128x128x8192 --shape 128x256x16384 --shape 256x512x16384 --shape 512x512x8192 --shape 1024x128x12288 --shape 256x256x1024"
NN="--shape 256x256x1024 --shape 1024x128x4096 --shape 128x512x2048"
for rep in 1 2; do
  for v in v0 v1; do
    use $v
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 150 $B/gemmforge bench $S --layout $lay --impl gemmforge,cublaslt-autotune --configs $C/red-$lay.json --splits 4,8,16 \
        --cluster-reduction both --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
python3 scripts/ab_sweeps.py $(for v in v0 v1; do printf "%s=" $v; ls -d $OUT/*-$v-[12] | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -14 $OUT/ab.txt
for f in $OUT/v*-*.log; do echo "== $f"; grep -E "red_|span|kernel|unit_main|unit_finish|drain" $f | head -30; done
cd $OUT && tar czf /tmp/call1.tar.gz . && rm -rf $OUT/* && mv /tmp/call1.tar.gz $OUT/ && ls -la $OUT
