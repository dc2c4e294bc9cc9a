# Session 31, call 7 (any Hopper card): is it the fifth stage or the footprint? The 128x176
# ping-pong with 4 stages traced with 0, 38912 (one stage) and 59000 bytes of unused shared memory
# added to its launch (`gemmforge trace --smem-pad`: the same code, a larger footprint, so the
# driver's shared-memory carveout grows and L1 shrinks), against 5 stages, on long K
# (4096x4096x8192) and on 16384x12288x1024 at the cap, complete.
source scripts/device_call.sh call7
pack() { tar czf $OUT/call7.tar.gz -C $OUT call7; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup pad
  local tag=$1-$2-pad$4
  timeout 120 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --smem-pad $4 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "$1 $2 pad $4 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_gap' $R/trace-$tag.log | awk '{print $1,$2,$3,$4,$5,$6,$7,$8}' | tr '\n' ' ')"
}
S4=sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore
S5=sm90_tn_f32_128x176x64_s5_c2_pingpong_1x1_tmastore
for shape in 4096x4096x8192:600 16384x12288x1024:2000; do
  for pad in 0 38912 59000; do t ${shape%:*} $S4 ${shape#*:} $pad; done
  t ${shape%:*} $S5 ${shape#*:} 0
  t ${shape%:*} $S5 ${shape#*:} 20000
done
q; pack; rm -rf $R; ls -la $OUT
