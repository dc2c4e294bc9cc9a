# Session 30, call 6 (any Hopper card): per-instruction stall sampling (as round3.sh) of our 128x176
# ping-pong tile, the tile cuBLAS's fastest kernel on 16384x12288x1024 uses (nvjet 176x128 ping-pong: 785k
# cycles against our ~867k, call 5), on that shape and on 4096^3, tn.
source scripts/device_call.sh call6
pack() { tar czf $OUT/call6.tar.gz -C $OUT call6; }
C=bench/results/2026-12-06-session30/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
prof() {  # name shape configs
  timeout 150 ncu --clock-control none --cache-control none --section SpeedOfLight --section WarpStateStats \
    --section SourceCounters --warp-sampling-interval 0 --import-source yes -k regex:gemmforge_hgemm \
    --launch-skip 3 --launch-count 1 -o $R/$1 \
    $B/gemmforge bench --shape $2 --layout tn --impl gemmforge --configs $3 --mode gpu --rounds 1 --out /tmp/p-$1 > $R/$1.log 2>&1
  echo "prof $1 exit $?"
  ncu --import $R/$1.ncu-rep --page details > $R/$1.txt 2>&1
  ncu --import $R/$1.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $R/$1-source.csv.gz
  rm -f $R/$1.ncu-rep; q
}
prof pp176-k1024 16384x12288x1024 $C/alone-128x176pp.json
prof pp176-k4096 4096x4096x4096 $C/alone-128x176pp.json
grep -hE "Duration|SM Frequency|Compute \(SM\) Throughput|Warp Cycles Per Issued|Executed Ipc" $R/*.txt | head -20
pack; rm -rf $R; ls -la $OUT
