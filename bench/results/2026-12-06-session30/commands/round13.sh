# Session 30, call 13 (any Hopper card): the producer asks L2 for the boxes 8 k-blocks ahead of its loads
# (v1, the work tree; producer 56 registers, consumers 224) against none (v0, HEAD's kernels in
# build/ab/v0), alternating runs, every config re-timed in interleaved rounds (gpu mode, tn); every
# cubin differs, so there is no control: the runs alternate, twice.
source scripts/device_call.sh call13
pack() { tar czf $OUT/call13.tar.gz -C $OUT call13; }
C=bench/results/2026-12-06-session30/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
SH="--shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x4096x4096 --shape 4096x16384x2048 --shape 16384x16384x128 --shape 8192x8192x256"
for rep in 1 2; do
  for v in v0 v1; do
    if [ $v = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0 GEMMFORGE_CACHE_DIR=/tmp/kc0; else unset GEMMFORGE_DATA_DIR; export GEMMFORGE_CACHE_DIR=/tmp/kc1; fi
    timeout 120 $B/gemmforge bench $SH --layout tn --impl gemmforge --configs $C/pp-handover.json --mode gpu --finalists 99 \
      --out $R/ab-$v-$rep > $R/ab-$v-$rep.log 2>&1; echo "ab $v $rep exit $? $(date +%T)"
  done
done
unset GEMMFORGE_DATA_DIR; export GEMMFORGE_CACHE_DIR=/tmp/kc1
timeout 60 $B/gemmforge trace --shape 16384x12288x1024 --kernel sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore --warmup 2000 --out $R/trace > $R/trace.log 2>&1
grep -E "clocks_per_k_block|unit_main_us|unit_gap_us|span" $R/trace.log
python3 - $R <<'PY'
import csv, sys, math, collections
t = collections.defaultdict(lambda: collections.defaultdict(list))
for v in ("v0", "v1"):
    for rep in (1, 2):
        for r in csv.DictReader(open(f"{sys.argv[1]}/ab-{v}-{rep}/sweep.csv")):
            if r["finalist_median_us"]: t[(r["M"] + "x" + r["N"] + "x" + r["K"], r["config"])][v].append(float(r["finalist_median_us"]))
ratios = collections.defaultdict(list)
for (shape, cfg), d in sorted(t.items()):
    if len(d["v0"]) and len(d["v1"]):
        a, b = sum(d["v0"]) / len(d["v0"]), sum(d["v1"]) / len(d["v1"])
        ratios[cfg.split("_tn_f32_")[1]].append(a / b)
        print(f"{shape:18} {cfg:55} v0 {a:8.1f} v1 {b:8.1f} v0/v1 {a / b:.3f}")
for cfg, rs in ratios.items(): print(f"{cfg:45} geomean v0/v1 {math.exp(sum(map(math.log, rs)) / len(rs)):.3f} over {len(rs)}")
PY
q; pack; rm -rf $R; ls -la $OUT
