# Session 31, call 11 (any Hopper card): where the 128x176 ping-pong's warps stall with 4 and
# with 5 stages on long K (4096x4096x8192, tn), per SASS instruction (Nsight Compute's warp
# sampling, real clocks, one launch after three), and the same at K = 1024 (16384x12288x1024).
source scripts/device_call.sh call11
pack() { tar czf $OUT/call11.tar.gz -C $OUT call11; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
prof() {  # name shape configs
  timeout 150 ncu --clock-control none --cache-control none --section SpeedOfLight --section WarpStateStats \
    --section SourceCounters --section MemoryWorkloadAnalysis --warp-sampling-interval 0 --import-source yes -k regex:gemmforge_hgemm \
    --launch-skip 3 --launch-count 1 -o $R/$1 \
    $B/gemmforge bench --shape $2 --layout tn --impl gemmforge --configs $3 --mode gpu --rounds 1 --out /tmp/p-$1 > $R/$1.log 2>&1
  echo "prof $1 exit $?"
  ncu --import $R/$1.ncu-rep --page details > $R/$1.txt 2>&1
  ncu --import $R/$1.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > $R/$1-source.csv.gz
  rm -f $R/$1.ncu-rep; q
}
prof s4-longk 4096x4096x8192 $C/pp176-s4.json
prof s5-longk 4096x4096x8192 $C/pp176-s5.json
prof s4-k1024 16384x12288x1024 $C/pp176-s4.json
prof s5-k1024 16384x12288x1024 $C/pp176-s5.json
for f in $R/*.txt; do echo "== $f"; grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Warp Cycles Per Issued|Shared Memory|L2 Hit|Bank" $f | head -12; done
for n in s4-longk s5-longk s4-k1024 s5-k1024; do echo "== $n"; python3 scripts/ncu_stalls.py $R/$n-source.csv.gz 400 | head -40; done
pack; rm -rf $R; ls -la $OUT
