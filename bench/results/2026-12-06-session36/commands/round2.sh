# Session 36, call 2 (any Hopper card). Which side of the main loop paces the small tiles on an
# L2-resident skinny shape: phase stamps (gemmforge trace) on 64x4096x4096 tn of our 64x64 1x1,
# its split in two, and the swapped 64x32 1x2 multicast tiling (cuBLAS's decomposition), each
# complete, without its wgmma (--ablate mma: the loads' pace alone) and without its TMA loads
# (--ablate loads: the math and the ring's hand-over alone).
source scripts/device_call.sh call2
pack() { tar cJf $OUT/call2.tar.xz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks="--kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k2_pdl --kernel sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl"
for part in none mma loads; do
  timeout -k 5 150 $B/gemmforge trace --shape 64x4096x4096 $ks --ablate $part --out $R/trace-$part > $R/trace-$part.log 2>&1
  echo "trace $part exit $? $(date +%T)"; q
done
grep -hE "k-block|main|kernel|without|sm90" $R/trace-*.log | head -80
pack; rm -rf $R; ls -la $OUT
