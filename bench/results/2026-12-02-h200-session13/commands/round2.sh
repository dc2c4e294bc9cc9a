# Session 13, call 2: the walk's divisions (kernels/sm90/work_division.cuh: Divisor) against the
# kernels of commit e2eb291 (v0, build/kernels-v0), alternating runs (3 each), 8 tiles on 8 tn and
# 4 nn shapes, splits 1 and auto; every candidate passes the bench's gate first. Then the traced
# 128x256 cooperative tile of the new kernels on 4096x4096xK, to see the gap between tiles.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-ab
C=bench/results/2026-12-02-h200-session13/commands
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
TN="--shape 4096x4096x256 --shape 4096x4096x1024 --shape 8192x8192x256 --shape 2048x2048x2048 --shape 1024x4096x1024 --shape 4096x4096x4096 --shape 256x512x16384 --shape 2048x128x8192"
NN="--shape 8192x8192x256 --shape 4096x4096x1024 --shape 2048x256x8192 --shape 1024x1024x2048"
VARIANTS="v0 div"
for rep in 1 2 3; do
  for v in $VARIANTS; do
    export GEMMFORGE_CACHE_DIR=/tmp/kc-$v
    if [ $v = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-v0; else unset GEMMFORGE_DATA_DIR; fi
    for lay in tn nn; do
      if [ $lay = tn ]; then S=$TN; else S=$NN; fi
      timeout 150 $B/gemmforge bench $S --layout $lay --impl gemmforge,cublaslt-autotune --configs $C/ab-$lay.json --splits 1,auto \
        --pdl on --mode gpu --out $OUT/$lay-$v-$rep > $OUT/$lay-$v-$rep.log 2>&1; echo "$lay $v $rep exit $? $(date +%T)"
    done
  done
done
unset GEMMFORGE_DATA_DIR
export GEMMFORGE_CACHE_DIR=/tmp/kc-div
timeout 120 $B/gemmforge trace --shape 4096x4096x256 --shape 4096x4096x1024 --shape 8192x8192x256 \
  --kernel sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore_pdl --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_pdl \
  --out $OUT/trace-div > $OUT/trace-div.log 2>&1; echo "trace exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
python3 scripts/ab_sweeps.py $(for v in $VARIANTS; do printf "%s=" $v; ls -d $OUT/*-$v-* | grep -v log | paste -sd, ; done) > $OUT/ab.txt 2>&1
tail -12 $OUT/ab.txt
cd $OUT && tar czf /tmp/call2.tar.gz . && rm -rf $OUT/* && mv /tmp/call2.tar.gz $OUT/ && ls -la $OUT
