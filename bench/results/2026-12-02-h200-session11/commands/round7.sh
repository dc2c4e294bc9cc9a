# Session 11, call 7: why our two-CTA multicast does not pay on a fetch-bound small tile.
# Nsight Compute (card's clocks, warm L2), every metric (raw page), on 2048x256x8192 nn:
# our 64x64 s8 one-consumer tile 1x1, 2x1 (B shared) and 1x2 (A shared), and cuBLASLt-autotune's pick.
set -uo pipefail
export PYTHONUNBUFFERED=1
B=build/bin-carry
C=bench/results/2026-12-02-h200-session11/commands
mkdir -p /tmp/kc && export GEMMFORGE_CACHE_DIR=/tmp/kc
S=2048x256x8192
prof() {  # name configs
  timeout 60 ncu --clock-control none --cache-control none --set full -k regex:gemmforge_hgemm --launch-skip 3 --launch-count 1 -o $OUT/$1 \
    $B/gemmforge bench --shape $S --layout nn --impl gemmforge --configs $2 --mode gpu --rounds 1 --out /tmp/p-$1 > $OUT/$1.log 2>&1
  echo "prof $1 exit $?"
}
prof mc-1x1 $C/p-64x64-1x1.json
prof mc-2x1 $C/p-64x64-2x1.json
prof mc-1x2 $C/p-64x64-1x2.json
timeout 90 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv -k regex:nvjet --launch-count 4000 \
  $B/gemmforge bench --shape $S --layout nn --impl cublaslt-autotune --mode gpu --rounds 1 --out /tmp/l-lt > $OUT/lt-list.csv 2>&1
pick=$(python3 -c "
import csv
rows=[r for r in csv.reader(open('$OUT/lt-list.csv')) if len(r)>10 and r[0].isdigit()]
print(rows[-1][4].split('(')[0] if rows else '')")
echo "lt pick: $pick"
[ -n "$pick" ] && timeout 90 ncu --clock-control none --cache-control none --set full -k "regex:^$pick" --launch-skip 2 --launch-count 1 -o $OUT/mc-lt \
  $B/gemmforge bench --shape $S --layout nn --impl cublaslt-autotune --mode gpu --rounds 1 --out /tmp/l2-lt > $OUT/mc-lt.log 2>&1
for f in $OUT/*.ncu-rep; do ncu --import $f --page raw > ${f%.ncu-rep}-raw.txt 2>&1; ncu --import $f --page details > ${f%.ncu-rep}.txt 2>&1; done
rm -f $OUT/*.ncu-rep; gzip -f $OUT/*-raw.txt $OUT/lt-list.csv
cd $OUT && tar czf /tmp/call7.tar.gz . && rm -rf $OUT/* && mv /tmp/call7.tar.gz $OUT/ && ls -la $OUT
