# Session 45, call 1 (either card, ~3 min): (a) the Sm90Kernel GPU tests, which session 44's review
# made share one launch helper and which had not run on a GPU since; (b) session 44's prepared
# L2 question, extended with each kernel's launch shape: the bytes that arrive at the SMs
# (l1tex__m_xbar2l1tex_read_bytes), the L2 request coalescer (lrc__) counters, and grid, block,
# cluster, shared memory and registers of ours (128x176 ping-pong 2x1 s5 _uw) and of cuBLAS's
# nvjet_sm90_hsh_176x128_64x5_1x2_h_bz, and of our same tile without a cluster (1x1, without the
# uniform warpgroup index, which spills there): does L2 merge what a 1x1 walk's neighbours read
# together? One launch each on 8192x8192x1024 tn.
# Carries build/carry.tar.xz (build/bin-ab). Run `scripts/device_tree.sh slim` first.
CALL=${CALL:-call1}
C44=bench/results/2026-12-07-session44/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout 200 $B/gemmforge_gpu_tests --gtest_filter='Sm90Kernel*' > $R/gpu-tests.log 2>&1
echo "gpu tests exit $? ${SECONDS}s"; grep -E '^\[  (PASSED|FAILED)|^\[  FAILED|tests ran' $R/gpu-tests.log | tail -8
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^(lrc__|l1tex__m_xbar2l1tex|l1tex__m_l1tex2xbar|launch__)' > $R/metrics.txt
wc -l < $R/metrics.txt
M='regex:^(lrc__.*\.sum|l1tex__m_xbar2l1tex_read_(bytes|sectors)\.sum|lts__t_(sectors|requests)_srcunit_tex_op_read\.sum|sm__cycles_elapsed\.avg|launch__(grid_size|block_size|cluster_dim_[xyz]|shared_mem_per_block_dynamic|registers_per_thread|occupancy_cluster_pct|cluster_max_active))$'
C45=bench/results/2026-12-07-session45/commands
for run in gemmforge:$C44/ncu-128x176pp-uw.json cublaslt-autotune:$C44/ncu-128x176pp-uw.json gemmforge-1x1:$C45/ncu-128x176pp-1x1.json; do
  impl=${run%%:*}; impl=${impl%-1x1}; cfg=${run#*:}; tag=${run%%:*}
  timeout 150 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^(nvjet_sm90_hsh_176|gemmforge_hgemm)' $B/gemmforge bench --shape 8192x8192x1024 --layout tn \
    --impl $impl --configs $cfg --mode gpu --rounds 1 --out /tmp/n-$tag > $R/ncu-$tag.csv 2>&1
  echo "$tag exit $? ${SECONDS}s"
  grep -E '"(lrc__|l1tex__m_xbar2l1tex|lts__t_(sectors|requests)_srcunit_tex_op_read|sm__cycles|launch__)' $R/ncu-$tag.csv | tail -24 | awk -F'","' '{print $(NF-2), $NF}'
done
q; xz -f $R/*.csv; pack; rm -rf $R; ls -la $OUT
