# Prepared in session 44 for the next session (not run): tells apart the two readings of call 3.
# Our 128x176 ping-pong reads 1308 MB from L2 on 8192x8192x1024 tn, cuBLAS's kernel of the same
# tile and cluster 976 MB. If the bytes that arrive at the SMs are the same for both, L2 merges
# requests that arrive together (cuBLAS's walk makes more of them coincide); if cuBLAS's SMs
# receive fewer, its kernel loads less (e.g. two consumers' tiles sharing one operand). One launch
# each; the metric list is saved first (names vary between Nsight Compute versions), and every
# metric of the L1/TEX crossbar input, the L2 request coalescer (lrc) and TMA that exists is read.
# Either card; build/carry.tar.xz holds any build (build/bin-ab).
CALL=${CALL:-call1}
C=bench/results/2026-12-07-session44/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^(lrc__|l1tex__m_xbar2l1tex|l1tex__m_l1tex2xbar|smsp__inst_executed_op_.*(tma|bulk)|lts__t_requests_srcunit_tex)' > $R/metrics.txt
wc -l < $R/metrics.txt
M='regex:^(lrc__.*\.sum|l1tex__m_xbar2l1tex_read_(bytes|sectors)\.sum|lts__t_(sectors|requests)_srcunit_tex_op_read\.sum|sm__cycles_elapsed\.avg)$'
for impl in gemmforge cublaslt-autotune; do
  timeout 150 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^(nvjet_sm90_hsh_176|gemmforge_hgemm)' $B/gemmforge bench --shape 8192x8192x1024 --layout tn \
    --impl $impl --configs $C/ncu-128x176pp-uw.json --mode gpu --rounds 1 --out /tmp/n-$impl > $R/ncu-$impl.csv 2>&1
  echo "$impl exit $? ${SECONDS}s"
  grep -E '"(lrc__|l1tex__m_xbar2l1tex|lts__t_(sectors|requests)_srcunit_tex_op_read|sm__cycles)' $R/ncu-$impl.csv | tail -12 | awk -F'","' '{print $(NF-2), $NF}'
done
q; xz -f $R/*.csv; pack; rm -rf $R; ls -la $OUT
