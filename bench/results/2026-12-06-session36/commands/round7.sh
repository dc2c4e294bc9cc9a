# Session 36, call 7 (any Hopper card; run after round5.sh in the same device call). The loads'
# pace alone (gemmforge trace --ablate mma) on 64x4096x4096 tn against what the memory side is
# made of: the swapped 64x32 with and without a multicast cluster, deeper; 64x64 at 4, 8 and 14
# stages, alone, split in two, and sharing A in a 1x2 multicast cluster. Complete builds beside.
source scripts/device_call.sh call7
pack() { tar cJf $OUT/call7.tar.xz -C $OUT call7; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks=""
for k in 64x32x64_s8_c1_coop_1x1_swap 64x32x64_s8_c1_coop_1x2_mc_swap 64x32x64_s16_c1_coop_1x2_mc_swap \
         64x64x64_s4_c1_coop_1x1 64x64x64_s8_c1_coop_1x1 64x64x64_s14_c1_coop_1x1 64x64x64_s8_c1_coop_1x1_k2 \
         64x64x64_s8_c1_coop_1x2_mc; do
  ks="$ks --kernel sm90_tn_f32_${k}_pdl"
done
for part in mma none; do
  timeout -k 5 150 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$part > $R/trace-$part.log 2>&1
  echo "trace $part exit $? $(date +%T)"; q
done
grep -hE "^64x4096|clocks_per_k_block|first_load_us|setup_us" $R/trace-mma.log $R/trace-none.log
pack; rm -rf $R; ls -la $OUT
