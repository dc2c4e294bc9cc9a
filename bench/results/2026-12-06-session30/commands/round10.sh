# Session 30, call 10 (any Hopper card): the ping-pong k-block's penalty at K = 1024 (beside the
# other consumer's epilogue) against long K, at the cap, for tiles whose epilogue stores C in
# boxes of different widths: 64x256 (64-column boxes, 128-byte rows), 128x160 (32 columns) and
# 128x176 (16 columns), tn.
source scripts/device_call.sh call10
pack() { tar czf $OUT/call10.tar.gz -C $OUT call10; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup
  timeout 90 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --out $R/trace-$1-$2 > $R/trace-$1-$2.log 2>&1
  echo "$1 $2 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_main_us|unit_finish_us' $R/trace-$1-$2.log | awk '{print $1,$2,$3}' | tr '\n' ' ')"
}
for k in sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore sm90_tn_f32_128x160x64_s4_c2_pingpong_1x1_tmastore \
         sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore; do
  t 16384x12288x1024 $k 2000
  t 4096x4096x8192 $k 600
done
q; pack; rm -rf $R; ls -la $OUT
