# Session 12, call 7: the producer walks each tile's K range from a k-block that depends on the
# tile (build/kernels-rot: commands/k-rotation.patch; the CTAs of a cluster alike), so the SMs
# that share an operand strip do not ask L2 for the same lines at once, against the committed
# kernels (v0), alternating runs (3 each). Every candidate passes the bench's gate first.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-ab  # gemmforge alone: the tree with every binary is over the carry limit
C=bench/results/2026-12-02-h200-session12/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
TN="--shape 2048x128x8192 --shape 64x4096x8192 --shape 4096x128x4096 --shape 256x256x8192 --shape 4096x4096x1024 --shape 1024x4096x1024"
NN="--shape 2048x256x8192 --shape 2048x256x2048 --shape 512x2048x4096 --shape 1024x1024x2048 --shape 64x1024x16384"
VARIANTS="v0 rot"
for rep in 1 2 3; do
  for v in $VARIANTS; do
    export GEMMFORGE_CACHE_DIR=/tmp/kc-$v
    if [ $v = v0 ]; then unset GEMMFORGE_DATA_DIR; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-$v; fi
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 120 $B/gemmforge bench $S --layout $lay --impl gemmforge,cublaslt-autotune --configs $C/ab3-$lay.json --splits 1,auto \
        --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
python3 scripts/ab_sweeps.py $(for v in $VARIANTS; do printf "%s=" $v; ls -d $OUT/*-$v-* | grep -v log | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -8 $OUT/ab.txt
cd $OUT && tar czf /tmp/call7.tar.gz . && rm -rf $OUT/* && mv /tmp/call7.tar.gz $OUT/ && ls -la $OUT
