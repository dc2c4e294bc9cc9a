# Session 31, call 2 (any Hopper card): where in a unit the ping-pong tile's time goes, k-block by
# k-block (`gemmforge trace` now stamps each k-block of the walk's units 4-7: the consumer's stage
# full and group retired, the producer's loads issued). 128x176 ping-pong on 16384x12288x1024 at the
# cap with and without its epilogue, the same M and N at K = 8192 (long units, same operands), and
# 4096x4096x1024 (operands in L2); the cooperative 128x256 with and without its (deferred) epilogue.
source scripts/device_call.sh call2
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() {  # shape kernel warmup part
  local tag=$1-$2-$4
  timeout 120 $B/gemmforge trace --shape $1 --kernel $2 --warmup $3 --ablate $4 --out $R/trace-$tag > $R/trace-$tag.log 2>&1
  echo "== $1 $2 $4 exit $?"; grep -E 'SM clock|clocks_per_k_block|unit_finish_us|unit_gap' $R/trace-$tag.log
  grep -A40 'per k-block' $R/trace-$tag.log | head -20
}
PP176=sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore
COOP=sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore
for p in none epilogue; do t 16384x12288x1024 $PP176 2000 $p; done
t 16384x12288x8192 $PP176 250 none
t 4096x4096x1024 $PP176 3000 none
for p in none epilogue; do t 16384x12288x1024 $COOP 2000 $p; done
q; pack; rm -rf $R; ls -la $OUT
