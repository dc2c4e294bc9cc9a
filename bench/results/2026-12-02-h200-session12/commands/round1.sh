# Session 12, call 1: main-loop code generation variants against the committed kernels (v0),
# alternating runs (3 each), kernels read from build/kernels-<variant> (GEMMFORGE_DATA_DIR; copies
# of the committed kernels/ with the change applied, not committed):
#   pp1: the warpgroup index broadcast from lane 0 (__shfl_sync), so ptxas sees the consumer
#        branch as warp-uniform: the ping-pong main loop then builds its wgmma descriptors in
#        uniform registers (72 instead of 103 SASS instructions per 8 HGMMA, no R2UR);
#   pp2: pp1 + k-steps outer, 64-row wgmma tiles inner (one B descriptor per k-step; consecutive
#        wgmmas add into different accumulators); results bitwise identical (same order per
#        accumulator);
#   uf:  (if present) the change that also gives the cooperative and one-consumer main loops
#        uniform descriptors.
# Every candidate passes the bench's correctness gate before it is timed.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session12/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
TN="--shape 4096x4096x512 --shape 4096x4096x1024 --shape 4096x4096x2048 --shape 2048x2048x2048 --shape 1024x4096x1024
    --shape 2048x1024x512 --shape 8192x8192x1024 --shape 4096x8192x4096 --shape 2048x128x8192 --shape 1024x2048x4096"
NN="--shape 4096x4096x1024 --shape 2048x2048x2048 --shape 2048x256x8192 --shape 1024x1024x2048 --shape 512x2048x4096
    --shape 8192x4096x2048"
VARIANTS="v0 pp1 pp2"
[ -d build/kernels-uf ] && VARIANTS="$VARIANTS uf"
for rep in 1 2 3; do
  for v in $VARIANTS; do
    export GEMMFORGE_CACHE_DIR=/tmp/kc-$v
    if [ $v = v0 ]; then unset GEMMFORGE_DATA_DIR; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-$v; fi
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 150 $B/gemmforge bench $S --layout $lay --impl gemmforge,cublaslt-autotune --configs $C/ab-$lay.json --splits auto \
        --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
python3 scripts/ab_sweeps.py $(for v in $VARIANTS; do printf "%s=" $v; ls -d $OUT/*-$v-* | grep -v log | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -20 $OUT/ab.txt
cd $OUT && tar czf /tmp/call1.tar.gz . && rm -rf $OUT/* && mv /tmp/call1.tar.gz $OUT/ && ls -la $OUT
