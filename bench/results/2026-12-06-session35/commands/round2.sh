# Session 35, call 2 (any Hopper card): where a small tile's launch spends its time on the
# L2-resident skinny shapes (call 1: the cuBLASLt-like tilings took 13.7 / 14.9 us against its
# 8.6 / 10.6). Phase stamps (gemmforge trace), tn: ours 1x1 and the cuBLASLt-like cluster tiling.
source scripts/device_call.sh call2
C=bench/results/2026-12-06-session35/commands
pack() { tar czf $OUT/call2.tar.gz -C $OUT call2; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
t() { timeout -k 5 60 $B/gemmforge trace --shape $1 --kernel $2 --out $R/trace > $R/trace-$1-$3.log 2>&1; echo "trace $1 $3 exit $?"; cat $R/trace-$1-$3.log | tail -40; }
t 64x4096x4096 sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pdl 64x64
t 64x4096x4096 sm90_tn_f32_64x32x64_s8_c1_coop_1x2_mc_swap_pdl 64x32-1x2-swap
t 64x4096x4096 sm90_tn_f32_64x64x64_s8_c1_coop_1x1_k2_pdl 64x64-k2
t 4096x128x4096 sm90_tn_f32_64x64x64_s8_c1_coop_1x2_mc_pdl 64x64-1x2
q; pack
# Nsight Compute, one launch each on 64x4096x4096 tn: our cuBLASLt-like tiling and cuBLAS's kernel.
OUT=$R GEMMFORGE_BIN=$B SHAPE=64x4096x4096 CONFIGS=$C/profile-64x32-1x2-swap.json PDL=on scripts/gpu_round.sh profile 2>&1 | tail -40
q; pack; rm -rf $R; ls -la $OUT
