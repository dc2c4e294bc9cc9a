# Session 31, call 5 (any Hopper card): is the ring's lead what the ping-pong tile's k-blocks lose
# at K = 1024? `gemmforge trace` (phase stamps only, no k-block stamps) of the 128x176 ping-pong
# with 4 and 5 stages on 16384x12288x1024 at the cap, complete and without its epilogue, and on
# long K (4096x4096x8192); the same for 64x256 ping-pong on 16384x12288x1024.
source scripts/device_call.sh call5
pack() { tar czf $OUT/call5.tar.gz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup part
  local tag=$1-$2-$4
  timeout 120 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --ablate $4 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "$1 $2 $4 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_main_us|unit_finish_us|unit_gap|event' $R/trace-$tag.log | awk '{print $1,$2,$3,$4}' | tr '\n' ' ')"
}
for s in 4 5; do
  K=sm90_tn_f32_128x176x64_s${s}_c2_pingpong_1x1_tmastore
  for p in none epilogue; do t 16384x12288x1024 $K 2000 $p; done
  t 4096x4096x8192 $K 600 none
  K=sm90_tn_f32_64x256x64_s${s}_c2_pingpong_1x1_tmastore
  for p in none epilogue; do t 16384x12288x1024 $K 2000 $p; done
done
q; pack; rm -rf $R; ls -la $OUT
