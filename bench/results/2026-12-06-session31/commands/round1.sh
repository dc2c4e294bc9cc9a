# Session 31, call 1 (any Hopper card): what each part of the TMA-store epilogue costs the main
# loop beside it. `gemmforge trace --ablate` builds leave one part out (kernels/sm90/ablation.cuh;
# the complete traced build is gated first): the 128x176 ping-pong tile (two alternating 16-column
# buffers) and the 64x256 ping-pong tile (whole-tile staging) on 16384x12288x1024 tn at the power
# cap (2000 launches first), against long K (4096x4096x8192); the cooperative 128x256 with and
# without its epilogue (the gap between its units).
source scripts/device_call.sh call1
pack() { tar czf $OUT/call1.tar.gz -C $OUT call1; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup part
  local tag=$1-$2-$4
  timeout 120 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --ablate $4 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "$1 $2 $4 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_main_us|unit_finish_us|unit_gap|event' $R/trace-$tag.log | awk '{print $1,$2,$3,$4}' | tr '\n' ' ')"
}
PP176=sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore
PP256=sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore
COOP=sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore
for p in none epilogue store-issue staging proxy-fence; do t 16384x12288x1024 $PP176 2000 $p; done
for p in none epilogue; do t 4096x4096x8192 $PP176 600 $p; done
for p in none epilogue store-issue staging; do t 16384x12288x1024 $PP256 2000 $p; done
for p in none epilogue; do t 16384x12288x1024 $COOP 2000 $p; done
q; pack; rm -rf $R; ls -la $OUT
