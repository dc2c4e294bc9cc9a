# Session 30, call 9 (any Hopper card): is the other consumer's epilogue what slows our ping-pong
# k-blocks at K = 1024? `gemmforge trace` of the 128x176 ping-pong tile with its TMA-store epilogue
# (11 column blocks of 16, two named barriers each) and with direct stores (no shared memory, no
# barrier), on 16384x12288x1024 tn after 2000 launches (the power cap), and the TMA-store tile
# on 4096x4096x8192 after 600 (long K at the cap).
source scripts/device_call.sh call9
pack() { tar czf $OUT/call9.tar.gz -C $OUT call9; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup
  timeout 90 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --out $R/trace-$1-$2 > $R/trace-$1-$2.log 2>&1
  echo "$1 $2 exit $? $(grep -E 'SM clock|clocks_per_k_block|unit_main_us|unit_finish_us|unit_gap_us' $R/trace-$1-$2.log | awk '{print $1,$2,$3}' | tr '\n' ' ')"
}
t 16384x12288x1024 sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore 2000
t 16384x12288x1024 sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1 2000
t 4096x4096x8192 sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore 600
t 16384x12288x1024 sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore 2000
q; pack; rm -rf $R; ls -la $OUT
