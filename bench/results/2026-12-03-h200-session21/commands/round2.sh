# Session 21, call 2 (call 1's hand-over at issue changed nothing; its kernels are reverted, the
# change kept as commands/hand-over-at-issue.patch). The binaries are 61f2120's host code; the
# kernels come from build/kernels-old (61f2120's kernels/, the shipped table's) and
# build/kernels-mbturn, through GEMMFORGE_DATA_DIR. (a) The committed kernels against
# build/kernels-mbturn (commands/mbarrier-turn.patch: the ping-pong turn handed over through two
# mbarriers instead of the named barrier), alternating, on the small-K shapes; (b) the raster
# group (a launch knob) of the 64x256 ping-pong and the cooperative 128x256 on three store-bound
# shapes, with cuBLASLt-autotune; (c) gemmforge trace of the 64x256 ping-pong with both kernels.
# Every output goes into one archive (the device returns at most 8 files).
set -uo pipefail
export PYTHONUNBUFFERED=1
tar xJf build/carry1.tar.xz
B=build/bin-ab
C=bench/results/2026-12-03-h200-session21/commands
export GEMMFORGE_CACHE_DIR=/tmp/kc
R=/tmp/call2 && mkdir -p $R
q() { nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $R/clocks.csv; }
echo "timestamp,name,driver,sm_mhz,mem_mhz,max_sm_mhz,power_w,power_limit_w,temp_c" > $R/clocks.csv; q
SHAPES="--shape 16384x16384x64 --shape 16384x16384x128 --shape 8192x8192x64 --shape 8192x8192x128 --shape 16384x8192x64 --shape 4096x4096x64"
ab() {  # variant rep
  if [ $1 = mbturn ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-mbturn; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old; fi
  timeout 120 $B/gemmforge bench $SHAPES --layout tn --impl gemmforge --configs $C/ab-tn.json --pdl on --mode gpu \
    --out $R/ab-$1-$2 > $R/ab-$1-$2.log 2>&1; echo "ab $1 $2 exit $? $(date +%T)"
}
ab base 1; ab mbturn 1; ab base 2; ab mbturn 2
export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old
q
timeout 150 $B/gemmforge bench --shape 16384x16384x64 --shape 16384x16384x128 --shape 8192x8192x64 --layout tn --impl gemmforge,cublaslt-autotune \
  --configs $C/raster-tn.json --group-m auto,1,2,4,8,16,64 --pdl on --mode gpu --out $R/raster > $R/raster.log 2>&1; echo "raster exit $? $(date +%T)"
q
for v in base mbturn; do
  if [ $v = mbturn ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-mbturn; else export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old; fi
  timeout 60 $B/gemmforge trace --shape 16384x16384x64 --kernel sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore_pdl \
    --out $R/trace-$v > $R/trace-$v.log 2>&1; echo "trace $v exit $? $(date +%T)"
done
unset GEMMFORGE_DATA_DIR
q
python3 scripts/ab_sweeps.py base=$R/ab-base-1,$R/ab-base-2 mbturn=$R/ab-mbturn-1,$R/ab-mbturn-2 > $R/ab.txt 2>&1; cat $R/ab.txt
python3 - <<'PY' > $R/raster.txt
import csv
rows=list(csv.DictReader(open('/tmp/call2/raster/sweep.csv')))
for r in rows:
    print(r['M'],r['N'],r['K'],r['config'],r['verdict'],r.get('estimate_us'),r.get('finalist_median_us',''))
PY
cat $R/raster.txt; grep -v "^\[" $R/raster.log | tail -12
grep -v "^\[" $R/trace-base.log | head -30; grep -v "^\[" $R/trace-mbturn.log | head -30
tar czf $OUT/call2.tar.gz -C /tmp call2 && ls -la $OUT
