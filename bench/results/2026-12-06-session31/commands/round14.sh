# Session 31, call 14 (any Hopper card): call 13's one-run 16-row raster group (0.996x against
# 0.957x for the automatic 13 rows on 16384x12288x1024), three times over: the four-stage 128x176
# ping-pong with groups auto, 16 and 32 and the cooperative 128x256 with auto and 16, each run
# re-timing every (config, group) beside cuBLASLt-autotune, gpu mode, tn; 16384x12288x1024 and
# 16384x16384x1024.
source scripts/device_call.sh call14
pack() { tar czf $OUT/call14.tar.gz -C $OUT call14; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for rep in 1 2 3; do
  timeout 150 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/raster-pp-coop.json --group-m auto,16,32 \
    --shape 16384x12288x1024 --shape 16384x16384x1024 --layout tn --mode gpu --finalists 99 \
    --time-limit 120 --out $R/sweep-$rep > $R/sweep-$rep.log 2>&1
  echo "sweep $rep exit $?"
done
q
python3 - $R <<'PY'
import csv, sys, collections, math
r = collections.defaultdict(list)
for rep in (1, 2, 3):
    d = f"{sys.argv[1]}/sweep-{rep}"
    lt = {}
    for x in csv.DictReader(open(d + "/results.csv")):
        if x["impl"] == "cublaslt-autotune": lt[(x["M"], x["N"], x["K"])] = float(x["median_us"])
    for x in csv.DictReader(open(d + "/sweep.csv")):
        k = (x["M"], x["N"], x["K"])
        if x["finalist_median_us"]: r[("x".join(k), x["config"])].append(lt[k] / float(x["finalist_median_us"]))
for (shape, cfg), v in sorted(r.items()):
    print(f"{shape:18} {cfg:58} " + " ".join(f"{a:.3f}" for a in v) + f"  geomean {math.exp(sum(map(math.log, v)) / len(v)):.3f}")
PY
pack; rm -rf $R; ls -la $OUT
