# Session 30, call 5 (any Hopper card): which kernel cuBLASLt-autotune runs on the compute-bound
# mid shapes (its kernel names tell tile, stages, cluster and cooperative or ping-pong), and its
# time per launch beside each of its other candidates (Nsight Compute's duration, one launch per
# algorithm it times), tn.
source scripts/device_call.sh call5
pack() { tar czf $OUT/call5.tar.gz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for shape in 16384x12288x1024 4096x4096x4096; do
  timeout 120 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__cycles_active.avg --csv --launch-count 1500 \
    -k regex:'^(nvjet|sm90|cutlass)' $B/gemmforge bench --shape $shape --layout tn --impl cublaslt-autotune --mode gpu --rounds 1 \
    --out /tmp/l-$shape > $R/lt-$shape.csv 2>&1
  echo "$shape exit $?"
  python3 - $R/lt-$shape.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 12 and r[0].isdigit()]
head = next(r for r in csv.reader(open(sys.argv[1])) if r and r[0] == "ID")
k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
t = collections.defaultdict(list)
for r in rows:
    if r[m] == "gpu__time_duration.sum": t[r[k].split("(")[0]].append(float(r[v].replace(",", "")))
last = rows[-1][k].split("(")[0] if rows else ""
for name, xs in sorted(t.items(), key=lambda x: min(x[1])):
    print(f"  {min(xs):10.0f} ns  x{len(xs):3d}  {name}{'  <- last launched' if name == last else ''}")
PY
  q
done
gzip -f $R/*.csv
pack; rm -rf $R; ls -la $OUT
