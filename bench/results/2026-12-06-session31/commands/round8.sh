# Session 31, call 8 (any Hopper card): the five-stage 128x176 ping-pong's slower k-blocks, cold or
# at the power cap: traced after 2 launches (a cool card, high clock) and after 600-2000 (at the
# cap), 4 and 5 stages, on 4096x4096x8192 and 16384x12288x1024.
source scripts/device_call.sh call8
pack() { tar czf $OUT/call8.tar.gz -C $OUT call8; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup
  local tag=$1-$2-w$3
  timeout 120 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "$1 $2 warmup $3 exit $? $(grep -E 'SM clock|clocks_per_k_block' $R/trace-$tag.log | awk '{print $1,$2,$3,$4,$5,$6,$7,$8}' | tr '\n' ' ')"
}
for s in 4 5; do
  K=sm90_tn_f32_128x176x64_s${s}_c2_pingpong_1x1_tmastore
  sleep 5; t 4096x4096x8192 $K 2; t 4096x4096x8192 $K 600
  sleep 5; t 16384x12288x1024 $K 2; t 16384x12288x1024 $K 2000
done
K=sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore
sleep 5; t 4096x4096x8192 $K 2; t 4096x4096x8192 $K 600
q; pack; rm -rf $R; ls -la $OUT
