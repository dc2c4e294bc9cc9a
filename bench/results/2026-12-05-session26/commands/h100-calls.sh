# Session 26, the calls that ran (01:49-01:51 UTC), on the one machine lent after 14 refused starts:
# an H100 80GB HBM3 (not the H200 the table and database are for), so only what compares within a run.
# call1: round1b.sh, which on a card other than the H200 runs the tall-K cluster sweep alone (tn):
TUNE_S=70 LIB_S=40 SWEEP_S=80 bash bench/results/2026-12-05-session26/commands/round1b.sh
# call2: the cluster GPU test, and the same sweep on nn shapes:
source scripts/device_call.sh call2; timeout -k 5 60 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel.ClustersOfFourAndEight*' > $R/cluster_test.log 2>&1
timeout -k 5 90 $B/gemmforge bench --shape 256x256x16384 --shape 256x512x16384 --shape 512x512x16384 --shape 128x256x16384 --shape 256x256x8192 --shape 512x512x8192 --layout nn --impl gemmforge,cublaslt-autotune --configs bench/results/2026-12-04-h200-session25/commands/tallk-clusters.json --splits auto,8,12 --pdl on --mode gpu --finalists 6 --time-limit 70 --out $R/sweep > $R/sweep.log 2>&1
# call3: traces of one launch each, 12 parts, without a cluster (parts apart) and in 2x2 and 4x2 clusters:
source scripts/device_call.sh call3; $B/gemmforge trace --shape 256x256x16384 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k12_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_2x2_mc_k12_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_4x2_mc_k12_pdl --out $R/trace > $R/trace.log 2>&1
# call4: the parts-apart launch with 16, 8 and 4 parts:
source scripts/device_call.sh call4; $B/gemmforge trace --shape 256x256x16384 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k16_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k8_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k4_pdl --out $R/trace > $R/trace.log 2>&1
# call5: two more tall-K shapes, the tiles the shipped table serves there:
source scripts/device_call.sh call5; $B/gemmforge trace --shape 128x256x16384 --shape 512x512x16384 --kernel sm90_tn_f32_64x64x64_s8_c1_coop_1x1_pa_k16_pdl --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_k4_pdl --out $R/trace > $R/trace.log 2>&1
# Each call ended with `tar czf $OUT/callN.tar.gz -C $OUT callN` (h100/callN.tar.gz).
