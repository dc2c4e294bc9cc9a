# Session 27, call 1: the lean finish of a sliced split-K sum (v1: the work tree; built only into
# parts-apart kernels: the arrival a reduction that waits for no reply, the departure releasing
# nothing, a one-consumer tile's slice loaded for every part at once) against HEAD's kernels (v0:
# build/ab/v0/kernels, commit 8ab9cb6, carried). Split-K GPU tests with v1; traces of v1 with the
# reduction's phase stamps (v0's kernels have none; session 26 traced their finish on the H100);
# then the same sliced launches of v0 and v1 alternating, gpu mode, tn, 10 tall-K shapes,
# cuBLASLt-autotune beside them in the first run of each. The fourth config (64x64 without parts
# apart) builds to the same code in v0 and v1: the A/B's control. The archive is rewritten after
# each step.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session27/commands
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
use() { export GEMMFORGE_CACHE_DIR=/tmp/kc-$1; if [ $1 = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0; else unset GEMMFORGE_DATA_DIR; fi; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
use v1
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.SplitK*:Runtime.*SplitK*:TraceLaunch*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]" $R/gpu_tests.log | head
q; pack
K=sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa
timeout -k 5 60 $B/gemmforge trace --shape 256x256x16384 --kernel ${K}_k16_pdl --kernel ${K}_k8_pdl --kernel ${K}_k4_pdl \
  --out $R/trace > $R/trace.log 2>&1; echo "trace exit $?"
timeout -k 5 60 $B/gemmforge trace --shape 128x256x16384 --shape 512x512x16384 --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pa_k16_pdl \
  --out $R/trace2 > $R/trace2.log 2>&1; echo "trace2 exit $?"
grep -E "launch|red_|unit_finish|span" $R/trace.log $R/trace2.log | cut -c1-150 | head -40
q; pack
S="--shape 256x256x16384 --shape 256x512x16384 --shape 512x512x16384 --shape 128x256x16384 --shape 256x256x8192 --shape 512x512x8192 --shape 128x128x16384 --shape 1024x64x8192 --shape 64x1024x12288 --shape 256x128x12288"
for rep in 1 2; do
  for v in v0 v1; do
    use $v
    if [ $rep = 1 ]; then I=gemmforge,cublaslt-autotune; else I=gemmforge; fi
    timeout -k 5 110 $B/gemmforge bench $S --layout tn --impl $I --configs $C/sliced-tn.json --splits auto,8,16 --pdl on \
      --mode gpu --finalists 1 --time-limit ${AB_S:-90} --out $R/tn-$v-$rep > $R/tn-$v-$rep.log 2>&1
    echo "$v $rep exit $? $(date +%T)"; q; pack
  done
done
python3 scripts/ab_sweeps.py v0=$R/tn-v0-1,$R/tn-v0-2 v1=$R/tn-v1-1,$R/tn-v1-2 > $R/ab.txt 2>&1
tail -8 $R/ab.txt
python3 $C/ab_gate.py $R/tn-v0-1,$R/tn-v0-2 $R/tn-v1-1,$R/tn-v1-2 > $R/ab_gate.txt 2>&1; gate=$?
cat $R/ab_gate.txt
q; pack
# On the H200 (the database and table are its), and if the lean finish is faster: round1-tune.sh
# with the time this call has left (10 minutes a call).
TUNE_S=$(( ${CALL_S:-520} - SECONDS - 2 * ${LIB_S:-45} ))
if [ $gate = 0 ] && grep -q '"gpu": "NVIDIA H200' $R/env.json && [ $TUNE_S -ge 90 ]; then
  echo "tune for ${TUNE_S} s"; source $C/round1-tune.sh
else
  echo "no tune (gate $gate, $TUNE_S s left)"
fi
pack; rm -rf $R; ls -la $OUT
