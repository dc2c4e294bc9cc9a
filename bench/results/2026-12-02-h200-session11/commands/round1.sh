# Session 11, call 1 (build/kernels-old: the committed kernels; the working tree's kernels/ had
# early-hand-over.patch applied, reverted after this call): (a) the ping-pong early hand-off, old kernels against new, alternating
# runs; (b) multicast variants timed on three shapes; (c) Nsight Compute (real clocks) on our
# kernels and cuBLASLt-autotune's pick (warm L2, as the bench runs), 2048x256x8192 nn and 4096x4096x1024 tn.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
mkdir -p /tmp/kc && export GEMMFORGE_CACHE_DIR=/tmp/kc  # compiled on first use (16 cores)
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
AB_SHAPES="--shape 1024x4096x512 --shape 12288x8192x512 --shape 1024x4096x1024 --shape 8192x4096x1024 --shape 4096x4096x1024 --shape 16384x1024x2048 --shape 512x4096x4096"
for rep in 1 2; do
  for v in old new; do
    if [ $v = old ]; then export GEMMFORGE_DATA_DIR=$PWD/build/kernels-old; else unset GEMMFORGE_DATA_DIR; fi
    timeout 100 $B/gemmforge bench $AB_SHAPES --layout tn --impl gemmforge,cublaslt-autotune --configs $C/ab-pp.json \
      --pdl on --mode gpu --out $OUT/ab-$v-$rep > $OUT/ab-$v-$rep.log 2>&1; echo "ab $v $rep exit $? $(date +%T)"
  done
done
unset GEMMFORGE_DATA_DIR
timeout 60 $B/gemmforge bench --shape 2048x256x8192 --layout nn --impl gemmforge,cublaslt-autotune --configs $C/sweep-nn.json \
  --pdl on --mode gpu --out $OUT/mc-nn > $OUT/mc-nn.log 2>&1; echo "mc-nn exit $?"
timeout 90 $B/gemmforge bench --shape 4096x4096x1024 --shape 12288x12288x512 --layout tn --impl gemmforge,cublaslt-autotune --configs $C/sweep-tn.json \
  --pdl on --mode gpu --out $OUT/mc-tn > $OUT/mc-tn.log 2>&1; echo "mc-tn exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
prof() {  # name shape layout configs
  timeout 60 ncu --clock-control none --cache-control none --set full --import-source yes -k regex:gemmforge_hgemm --launch-skip 3 --launch-count 1 -o $OUT/$1 \
    $B/gemmforge bench --shape $2 --layout $3 --impl gemmforge --configs $4 --mode gpu --rounds 1 --out /tmp/p-$1 > $OUT/$1.log 2>&1
  echo "prof $1 exit $?"
}
prof_lt() {  # name shape layout: list cuBLASLt-autotune's launches, then profile its pick (the last one)
  timeout 90 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv -k regex:nvjet --launch-count 4000 \
    $B/gemmforge bench --shape $2 --layout $3 --impl cublaslt-autotune --mode gpu --rounds 1 --out /tmp/l-$1 > $OUT/$1-list.csv 2>&1
  pick=$(python3 -c "
import csv,sys
rows=[r for r in csv.reader(open('$OUT/$1-list.csv')) if len(r)>10 and r[0].isdigit()]
print(rows[-1][4].split('(')[0] if rows else '')")
  echo "$1 pick: $pick"
  [ -n "$pick" ] && timeout 90 ncu --clock-control none --cache-control none --set full -k "regex:^$pick" --launch-skip 2 --launch-count 1 -o $OUT/$1 \
    $B/gemmforge bench --shape $2 --layout $3 --impl cublaslt-autotune --mode gpu --rounds 1 --out /tmp/l2-$1 > $OUT/$1.log 2>&1
  echo "prof $1 exit $?"
}
prof gf-nn-64x64 2048x256x8192 nn $C/p-64x64-1x1.json
prof gf-nn-64x64-2x1 2048x256x8192 nn $C/p-64x64-2x1.json
prof_lt lt-nn 2048x256x8192 nn
prof gf-tn-128x128pp 4096x4096x1024 tn $C/p-128x128pp-1x1.json
prof gf-tn-128x256 4096x4096x1024 tn $C/p-128x256-1x1.json
prof_lt lt-tn 4096x4096x1024 tn
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
for f in $OUT/*.ncu-rep; do ncu --import $f --page details > ${f%.ncu-rep}.txt 2>&1; done
for f in $OUT/gf-*.ncu-rep; do ncu --import $f --page source --csv --print-source sass 2>/dev/null | gzip > ${f%.ncu-rep}-source.csv.gz; done
rm -f $OUT/*.ncu-rep
gzip -f $OUT/*-list.csv
cd $OUT && tar czf /tmp/call1.tar.gz . && rm -rf $OUT/* && mv /tmp/call1.tar.gz $OUT/ && ls -la $OUT
