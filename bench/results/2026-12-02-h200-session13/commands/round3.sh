# Session 13, call 3: the cooperative TMA-store epilogue taken apart (new stamps: the first
# consumer's first thread's clocks waiting for earlier stores to read their buffers, in named
# barriers, and staging), on the tiles whose epilogue took 0.7-1.5 µs in call 1.
set -uo pipefail
B=build/bin-ab
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv > $OUT/clocks.csv
export GEMMFORGE_CACHE_DIR=/tmp/kc
timeout 200 $B/gemmforge trace --shape 8192x8192x256 --shape 4096x4096x1024 \
  --kernel sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore_pdl --kernel sm90_tn_f32_128x256x64_s3_c2_coop_1x1_tmastore_pdl \
  --kernel sm90_tn_f32_256x128x64_s3_c2_coop_1x1_tmastore_pdl --kernel sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore_pdl \
  --kernel sm90_tn_f32_128x192x64_s4_c2_coop_1x1_tmastore_pdl --kernel sm90_tn_f32_128x128x64_s4_c2_pingpong_1x1_tmastore_pdl \
  --out $OUT/epi > $OUT/epi.log 2>&1; echo "trace exit $?"
nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader >> $OUT/clocks.csv
grep -E "^[0-9]|event|unit_finish|epi_|unit_gap" $OUT/epi.log
cd $OUT && tar czf /tmp/call3.tar.gz . && rm -rf $OUT/* && mv /tmp/call3.tar.gz $OUT/ && ls -la $OUT
