# Session 44, call 1 (any Hopper card): two main-loop changes, each tried as a kernel variant of the
# uniform-warpgroup builds (build/kvarX: the tree's kernels with the knob function returning
# uniform_warpgroup_of, so every _uw config takes it; made as bench/NOTES.md [session44] says):
#   E  early hand-over: a ping-pong consumer arrives on the other's order barrier once its unit's
#      last wgmma group is issued, not once it retired (early_handoff_of, hgemm_ws.cuh);
#   C  accumulators cleared by each unit's first wgmmas (scale-d 0) instead of zeroed by CS2R
#      (clear_by_first_mma_of, mainloop.cuh); EC both.
# (1) the uniform-warpgroup gate test with EC; (2) base/E/C/EC alternating twice on session 43's
# uw-shapes.txt, both layouts, gpu mode, the _uw configs of uw-only.json in 99-finalist finals;
# (3) Nsight Compute on 8192x8192x1024 tn, 128x176 ping-pong 2x1 s5 _uw, base against EC.
# Cubins for every variant come precompiled in build/kc44.tar.xz.
CALL=${CALL:-call1}
C=bench/results/2026-12-07-session44/commands
C43=bench/results/2026-12-07-session43/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
tar xJf build/kc44.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc44/* $GEMMFORGE_CACHE_DIR/
tar xJf build/kvars.tar.xz
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
GEMMFORGE_DATA_DIR=$PWD/build/kvarEC timeout 150 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.UniformWarpgroup*' > $R/gpu_tests-EC.log 2>&1
rc=$?; tail -3 $R/gpu_tests-EC.log; echo "gpu tests EC rc $rc ${SECONDS}s"
ab() {  # $1 run name, $2 kernels dir (empty: the tree's), $3 seed
  GEMMFORGE_DATA_DIR=$2 timeout 100 $B/gemmforge bench --shapes $C43/uw-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
    --configs $C/uw-only.json --finalists 99 --mode gpu --seed $3 --out $R/ab-$1 > $R/ab-$1.log 2>&1
  echo "ab-$1 exit $? ${SECONDS}s"
}
if [ $rc -eq 0 ]; then
  for i in 1 2; do
    ab base-$i "" $i; ab E-$i $PWD/build/kvarE $i; ab C-$i $PWD/build/kvarC $i; ab EC-$i $PWD/build/kvarEC $i
  done
  q; pack
  python3 scripts/ab_sweeps.py base=$R/ab-base-1,$R/ab-base-2 E=$R/ab-E-1,$R/ab-E-2 > $R/ab-E.txt 2>&1; tail -8 $R/ab-E.txt
  python3 scripts/ab_sweeps.py base=$R/ab-base-1,$R/ab-base-2 E=$R/ab-E-1,$R/ab-E-2 C=$R/ab-C-1,$R/ab-C-2 EC=$R/ab-EC-1,$R/ab-EC-2 > $R/ab-all.txt 2>&1; tail -5 $R/ab-all.txt
  M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__cycles_active.avg
  for v in base EC; do
    d=""; [ $v = EC ] && d=$PWD/build/kvarEC
    GEMMFORGE_DATA_DIR=$d timeout 100 ncu --clock-control none --cache-control none --metrics $M,sass__inst_executed_per_opcode --csv --launch-count 40 \
      -k regex:'^gemmforge_hgemm' $B/gemmforge bench --shape 8192x8192x1024 --layout tn --impl gemmforge \
      --configs $C/ncu-128x176pp-uw.json --mode gpu --rounds 1 --out /tmp/n-$v > $R/ncu-$v.csv 2>&1
    echo "ncu $v exit $? ${SECONDS}s"
    grep -E 'sm__cycles_elapsed.avg|hmma_cycles_active|sm__inst_executed.sum' $R/ncu-$v.csv | tail -3 | awk -F'","' '{print $(NF-2), $NF}'
  done
  xz -f $R/*.csv
fi
q; pack
rm -rf $R; ls -la $OUT
