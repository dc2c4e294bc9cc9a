# Session 36, call 3 (any Hopper card). commands/two-chains.patch (carried as build/kvar1,
# GEMMFORGE_DATA_DIR): small f32 tiles (one warpgroup's 64 rows × at most 128 columns) accumulate
# alternate k16 steps into two register sets, two independent wgmma chains instead of one
# dependent chain. (1) Phase stamps on 64x4096x4096 tn, committed and variant, complete and
# without loads (the math's pace alone). (2) A/B, alternating twice: session 35's skinny-clusters
# configs on its nine rotation shapes, gated, against cuBLASLt-autotune. Cubins of both sources
# compiled on the CPU machine are carried (build/kc36b).
source scripts/device_call.sh call3
pack() { tar cJf $OUT/call3.tar.xz -C $OUT call3; }
tar xJf build/kc36b.tar.xz && mkdir -p $GEMMFORGE_CACHE_DIR && cp build/kc36b/* $GEMMFORGE_CACHE_DIR/
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks="--kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k2_pdl --kernel sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl"
for v in v0 two; do for part in none loads; do
  dir=""; [ $v = two ] && dir=$PWD/build/kvar1
  GEMMFORGE_DATA_DIR=$dir timeout -k 5 100 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$v-$part > $R/trace-$v-$part.log 2>&1
  echo "trace $v $part exit $? $(date +%T)"
done; done
q; pack
ab() {  # $1 name, $2 data dir or empty
  GEMMFORGE_DATA_DIR=$2 timeout -k 5 100 $B/gemmforge bench --impl gemmforge,cublaslt-autotune \
    --configs bench/results/2026-12-06-session35/commands/skinny-clusters.json \
    --shapes bench/results/2026-12-06-session35/commands/rotation-shapes.txt --layout both --mode gpu \
    --splits 1,2 --pdl on --finalists 8 --out $R/$1 > $R/$1.log 2>&1
  echo "$1 exit $? $(date +%T)"; grep -h "gemmforge (best)" $R/$1/summary.md | head -1
}
for i in 1 2; do ab v0-$i ""; ab two-$i $PWD/build/kvar1; done
q; pack
grep -hE "^64x4096|clocks_per_k_block|unit_main_us" $R/trace-*.log | head -60
python3 scripts/ab_sweeps.py v0=$R/v0-1,$R/v0-2 two=$R/two-1,$R/two-2 2>&1 | tail -40
pack; rm -rf $R; ls -la $OUT
