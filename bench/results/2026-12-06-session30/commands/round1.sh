# Session 30, call 1 (any Hopper card): where the compute-bound mid gap is.
# (1) The strong large-class tiles the tuner never measured on these shapes, every config
#     re-timed in interleaved rounds beside cuBLASLt-autotune, gpu mode, both layouts.
# (2) Each implementation alone at steady state (its own clock and power), with nvidia-smi
#     sampling clocks and power every 50 ms (a read-only query): cuBLASLt-autotune, then our
#     128x256 s4, its 2x1 multicast twin and 64x256 ping-pong, on two shapes, tn.
source scripts/device_call.sh call1
C=bench/results/2026-12-06-session30/commands
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 300 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/mid-strong.json --shapes $C/compute-mid.txt \
  --layout both --mode gpu --finalists 99 --time-limit 260 --out $R/sweep > $R/sweep.log 2>&1
echo "sweep exit $?"; q; pack
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 50 > $R/smi.csv &
smi=$!
for shape in 16384x12288x1024 4096x4096x4096; do
  for run in lt 128x256 128x256-2x1 64x256pp lt2; do
    echo "$(date +%T.%N) start $shape $run" >> $R/alone-marks.txt
    case $run in
      lt*) timeout 60 $B/gemmforge bench --impl cublaslt-autotune --shape $shape --layout tn --mode gpu --rounds 15 --out $R/alone-$shape-$run > $R/alone-$shape-$run.log 2>&1 ;;
      *) timeout 60 $B/gemmforge bench --impl gemmforge --configs $C/alone-$run.json --shape $shape --layout tn --mode gpu --rounds 15 --out $R/alone-$shape-$run > $R/alone-$shape-$run.log 2>&1 ;;
    esac
    echo "$(date +%T.%N) end $shape $run exit $?" >> $R/alone-marks.txt
    sleep 2
  done
done
kill $smi; q; pack
grep -h "gemmforge (best)\|cublaslt-autotune (best)" $R/sweep/summary.md | head -4
for f in $R/alone-*/results.csv; do echo "$f: $(tail -n +2 $f | cut -d, -f1-3,5,7,11,18-20 | head -3)"; done
pack; rm -rf $R; ls -la $OUT
