# Session 30, call 3 (any Hopper card): where the consumer warps of the cooperative 128x256 s4
# tile stall between two tiles, per SASS instruction (Nsight Compute's warp sampling, real
# clocks), on a K = 1024 shape and a K = 256 one (tn).
source scripts/device_call.sh call3
pack() { tar czf $OUT/call3.tar.gz -C $OUT call3; }
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
prof coop256-k1024 16384x12288x1024 $C/alone-128x256.json
prof coop256-k256 16384x16384x256 $C/alone-128x256.json
grep -hE "Duration|SM Frequency|Compute \(SM\) Throughput|Warp Cycles Per Issued|Executed Ipc" $R/*.txt | head -20
pack; rm -rf $R; ls -la $OUT
