# Session 31, call 4 (any Hopper card): call 3 again with the walk's multipliers set up without a
# 64-bit division and the scheduler kept out of local memory (v1, the work tree) against HEAD's
# divisions (v0, build/ab/v0): `gemmforge trace` of the cooperative 128x256 on 16384x12288x1024 at the
# cap and on 8192x8192x256
# (the consumer's time between units), then every config of walk-ab.json re-timed in interleaved
# rounds against cuBLASLt, alternating v0 and v1 twice (gpu mode, tn).
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
use() { if [ $1 = v0 ]; then export GEMMFORGE_DATA_DIR=$PWD/build/ab/v0 GEMMFORGE_CACHE_DIR=/tmp/kc0; else unset GEMMFORGE_DATA_DIR; export GEMMFORGE_CACHE_DIR=/tmp/kc1; fi; }
t() {  # version shape kernel warmup part
  use $1; local tag=$1-$2-$3-$5
  timeout 120 $B/gemmforge trace --shape $2 --kernel $3 --warmup $4 --ablate $5 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "== $1 $2 $3 $5 exit $?"; grep -E 'SM clock|setup_us|first_load|unit_wait|clocks_per_k_block|unit_finish_us|unit_gap' $R/trace-$tag.log
}
COOP=sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore
PP176=sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore
for v in v0 v1; do t $v 16384x12288x1024 $COOP 2000 none; t $v 8192x8192x256 $COOP 300 none; done
SH="--shape 16384x12288x1024 --shape 8192x8192x1024 --shape 4096x4096x4096 --shape 8192x8192x256 --shape 4096x4096x512"
for rep in 1 2; do
  for v in v0 v1; do
    use $v
    timeout 150 $B/gemmforge bench $SH --layout tn --impl gemmforge --configs $C/walk-ab.json --mode gpu --finalists 99 \
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
