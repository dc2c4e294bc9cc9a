# Session 20, call 2: where the store-bound small-K launches spend their time (gemmforge trace:
# a traced build of each kernel, gated, 20 launches, then one more with its phase stamps read
# back) on the two shapes that write the most C at K = 64 and 128, with the kernels the tuner
# found best there (session 13's database): ping-pong 64x256 and 128x128 (2-CTA multicast), and
# the cooperative 128x256 with the deferred epilogue.
set -uo pipefail
tar xJf build/carry1.tar.xz
B=build/bin-ab
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
export GEMMFORGE_CACHE_DIR=/tmp/kc
t() { local name=$1; shift; timeout 150 $B/gemmforge trace "$@" --out $OUT/$name > $OUT/$name.log 2>&1; echo "$name exit $? $(date +%T)"; }
t small-k --shape 16384x16384x64 --shape 16384x16384x128 \
  --kernel sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore_pdl \
  --kernel sm90_tn_f32_128x128x64_s4_c2_pingpong_1x2_mc_tmastore_pdl \
  --kernel sm90_tn_f32_128x256x64_s3_c2_coop_1x1_tmastore_pdl
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
grep -v "^\[" $OUT/small-k.log | head -150
cd $OUT && tar czf /tmp/call2.tar.gz small-k && rm -rf small-k && mv /tmp/call2.tar.gz $OUT/ && ls -la $OUT
