# Session 31, call 10 (any Hopper card): the ring as two arrays, every stage's A tile and then
# every stage's B tile (v1, the work tree), against A and B side by side in each stage (v0, HEAD,
# build/ab/v0): traces of the 128x176 ping-pong with 4 and 5 stages on long K and on
# 16384x12288x1024 at the cap, then every config of wait-ab.json re-timed in interleaved rounds
# against cuBLASLt, v0 and v1 alternating twice (gpu mode, tn).
source scripts/device_call.sh call10
pack() { tar czf $OUT/call10.tar.gz -C $OUT call10; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
use() { if [ $1 = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0 GEMMFORGE_CACHE_DIR=/tmp/kc0; else unset GEMMFORGE_DATA_DIR; export GEMMFORGE_CACHE_DIR=/tmp/kc1; fi; }
t() {  # version shape kernel warmup
  use $1; local tag=$1-$2-$3
  timeout 120 $B/gemmforge trace --shape $2 --kernel $3 --warmup $4 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "== $1 $2 $3 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_gap' $R/trace-$tag.log | awk '{print $1,$2,$3,$4,$5,$6,$7,$8}' | tr '\n' ' ')"
}
for v in v0 v1; do
  for s in 4 5; do
    t $v 4096x4096x8192 sm90_tn_f32_128x176x64_s${s}_c2_pingpong_1x1_tmastore 600
    t $v 16384x12288x1024 sm90_tn_f32_128x176x64_s${s}_c2_pingpong_1x1_tmastore 2000
  done
  t $v 16384x12288x1024 sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore 2000
done
SH="--shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x4096x4096 --shape 8192x8192x256 --shape 4096x4096x512"
for rep in 1 2; do
  for v in v0 v1; do
    use $v
    timeout 150 $B/gemmforge bench $SH --layout tn --impl gemmforge --configs $C/wait-ab.json --mode gpu --finalists 99 \
      --out $R/ab-$v-$rep > $R/ab-$v-$rep.log 2>&1; echo "ab $v $rep exit $? $(date +%T)"
  done
done
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
