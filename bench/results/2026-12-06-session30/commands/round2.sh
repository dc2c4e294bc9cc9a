# Session 30, call 2 (any Hopper card): where a 128x256 cooperative tile's clocks go on
# 16384x12288x1024 tn at the power cap (2000 launches before the traced one), beside the
# ping-pong tiles that won the tn sweep (128x176) and the tuned pick (128x128 ping-pong).
source scripts/device_call.sh call2
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for k in sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore \
         sm90_tn_f32_128x128x64_s4_c2_pingpong_1x1_tmastore sm90_tn_f32_128x256x64_s3_c2_coop_1x1_tmastore; do
  timeout 120 $B/gemmforge trace --shape 16384x12288x1024 --kernel $k --warmup 2000 --out $R/trace-$k > $R/trace-$k.log 2>&1
  echo "$k exit $?"; q
done
tail -n 40 $R/trace-*.log | cut -c1-220
pack; rm -rf $R; ls -la $OUT
