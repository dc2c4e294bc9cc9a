# Session 23, call 5: split-K parts `tiles` units apart (consecutive CTAs on the same K range, so
# the CTAs that share an A or B box start reading it together), as a patch of the kernels
# (commands/split-parts-apart.patch, applied in build/kernels-new, through GEMMFORGE_DATA_DIR),
# against the committed order (a tile's parts consecutive), alternating, on tall-K shapes with
# the one-consumer and cooperative tiles the shipped table serves there; splits auto (one wave).
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry5.tar.xz
B=build/bin-ab
C=bench/results/2026-12-03-h200-session23/commands
mkdir -p $OUT/call5
O=$OUT/call5
export GEMMFORGE_CACHE_DIR=/tmp/kc
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $O/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $O/clocks.csv; q
SHAPES="--shape 128x256x16384 --shape 256x256x8192 --shape 256x256x16384 --shape 256x512x8192 --shape 512x512x16384 --shape 512x128x12288 --shape 64x512x16384 --shape 256x128x16384 --shape 128x512x8192 --shape 64x256x4096"
ab() {  # variant rep impls
  if [ $1 = new ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-new; else unset GEMMFORGE_DATA_DIR; fi
  timeout 120 $B/gemmforge bench $SHAPES --layout tn --impl $3 --configs $C/split-order-tn.json --splits auto --pdl on --mode gpu \
    --out $O/ab-$1-$2 > $O/ab-$1-$2.log 2>&1; echo "ab $1 $2 exit $? $(date +%T)"
}
ab old 1 gemmforge,cublaslt-autotune; ab new 1 gemmforge; ab old 2 gemmforge; ab new 2 gemmforge,cublaslt-autotune
unset GEMMFORGE_DATA_DIR
q
python3 scripts/ab_sweeps.py old=$O/ab-old-1,$O/ab-old-2 new=$O/ab-new-1,$O/ab-new-2 > $O/ab.txt 2>&1; cat $O/ab.txt
grep -h "fail\|FAIL\|error" $O/ab-*.log | head
cd $OUT && tar czf call5.tar.gz call5 && rm -rf call5
