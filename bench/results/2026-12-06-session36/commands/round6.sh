# Session 36, call 6 (any Hopper card). commands/first-stage-alone.patch (carried as build/kvar2,
# GEMMFORGE_DATA_DIR): the producer issues a CTA's first stage and waits for it to land before it
# issues the rest of the ring, so L2 serves it ahead of the others instead of interleaved with
# them. (1) Phase stamps, committed and variant: 64x4096x4096 tn (64x64, its split in two, the
# swapped 64x32 1x2) and 256x64x16384 tn (64x64 split in 32, the H100 table's kind of tall-K
# kernel). (2) A/B alternating twice, gpu mode, against cuBLASLt-autotune: session 35's rotation
# shapes and configs (splits 1, 2), and five tall-K shapes with 64-row tiles (splits 8, 16, 32).
source scripts/device_call.sh call6
C=bench/results/2026-12-06-session36/commands
pack() { tar cJf $OUT/call6.tar.xz -C $OUT call6; }
tar xJf build/kc36c.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc36c/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for v in v0 first; do
  dir=""; [ $v = first ] && dir=$PWD/build/kvar2
  GEMMFORGE_DATA_DIR=$dir timeout -k 5 60 $B/gemmforge trace --shape 64x4096x4096 --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl \
    --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k2_pdl --kernel sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl \
    --out $R/trace-$v > $R/trace-$v.log 2>&1
  GEMMFORGE_DATA_DIR=$dir timeout -k 5 60 $B/gemmforge trace --shape 256x64x16384 --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k32_pdl \
    --out $R/trace-tallk-$v > $R/trace-tallk-$v.log 2>&1
  echo "trace $v exit $? $(date +%T)"
done
q; pack
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 80 $B/gemmforge bench --impl gemmforge,cublaslt-autotune \
    --configs bench/results/2026-12-06-session35/commands/rotation-ab.json \
    --shapes bench/results/2026-12-06-session35/commands/rotation-shapes.txt --layout both --mode gpu \
    --splits 1,2 --pdl on --finalists 8 --out $R/$1 > $R/$1.log 2>&1
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 80 $B/gemmforge bench --impl gemmforge,cublaslt-autotune --configs $C/tallk-ab.json \
    --shapes $C/tallk-shapes.txt --layout both --mode gpu --splits 8,16,32 --pdl on --finalists 8 --out $R/$1-tallk > $R/$1-tallk.log 2>&1
  echo "$1 exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/$1/summary.md $R/$1-tallk/summary.md | grep " all "
}
for i in 1 2; do ab v0-$i ""; ab first-$i $PWD/build/kvar2; done
q; pack
grep -hE "^(64x4096|256x64)|first_load_us|unit_main_us|clocks_per_k_block|cta_busy_us|event" $R/trace-*.log | head -60
python3 scripts/ab_sweeps.py v0=$R/v0-1,$R/v0-2 first=$R/first-1,$R/first-2 2>&1 | tail -14
python3 scripts/ab_sweeps.py v0=$R/v0-1-tallk,$R/v0-2-tallk first=$R/first-1-tallk,$R/first-2-tallk 2>&1 | tail -8
pack; rm -rf $R; ls -la $OUT
