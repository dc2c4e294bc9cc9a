# Session 30, call 4 (any Hopper card): the main loop's clocks per k-block on a long-K shape
# (4096x4096x8192 tn, 128 k-blocks per unit: the epilogue and the walk do not matter) for eight
# tiles, against the shared-memory model of bench/NOTES.md (session 30): wgmma reads A and B from
# shared memory for every 64-row wgmma and TMA writes each stage, at most 128 bytes per clock per SM.
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
for k in sm90_tn_f32_128x256x64_s4_c2_coop_1x1_tmastore sm90_tn_f32_128x192x64_s4_c2_coop_1x1_tmastore \
         sm90_tn_f32_128x128x64_s4_c2_coop_1x1_tmastore sm90_tn_f32_256x128x64_s3_c2_coop_1x1_tmastore \
         sm90_tn_f32_256x160x64_s3_c2_coop_1x1_tmastore sm90_tn_f32_128x176x64_s4_c2_pingpong_1x1_tmastore \
         sm90_tn_f32_128x128x64_s4_c2_pingpong_1x1_tmastore sm90_tn_f32_64x256x64_s4_c2_pingpong_1x1_tmastore \
         sm90_tn_f32_128x256x64_s4_c2_coop_2x1_mc_tmastore; do
  timeout 60 $B/gemmforge trace --shape 4096x4096x8192 --kernel $k --warmup 50 --out $R/trace-$k > $R/trace-$k.log 2>&1
  echo "$k exit $? $(grep -E 'clocks_per_k_block|SM clock' $R/trace-$k.log | tr -s ' ' | cut -c1-120 | tr '\n' ' ')"
done
q; pack; rm -rf $R; ls -la $OUT
