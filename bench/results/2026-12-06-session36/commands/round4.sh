# Session 36, call 4 (any Hopper card). The math's pace alone (gemmforge trace --ablate loads:
# no TMA load, every stage full at once) against tile width and the number of consumer
# warpgroups, on 256x4096x4096 tn: does a wgmma cost ~60 clocks whatever its N, and do two
# consumer warpgroups (each its own 64 rows) overlap theirs?
source scripts/device_call.sh call4
pack() { tar cJf $OUT/call4.tar.xz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
ks=""
for k in 64x16x64_s8_c1 64x32x64_s8_c1 64x64x64_s8_c1 64x128x64_s6_c1 64x256x64_s4_c1 128x32x64_s6_c2 128x64x64_s6_c2 128x128x64_s4_c2 128x256x64_s3_c2; do
  ks="$ks --kernel sm90_tn_f32_${k}_coop_1x1_pdl"
done
timeout -k 5 200 $B/gemmforge trace --shape 256x4096x4096 $ks --ablate loads --out $R/trace-loads > $R/trace-loads.log 2>&1
echo "trace exit $? $(date +%T)"; q
grep -hE "^256x4096|clocks_per_k_block" $R/trace-loads.log
pack; rm -rf $R; ls -la $OUT
