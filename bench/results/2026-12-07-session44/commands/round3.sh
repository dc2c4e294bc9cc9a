# Session 44, call 3 (an H100, the warm machine after call 2): where our 128x176 ping-pong's extra
# L2 traffic comes from. Session 43's Nsight Compute runs counted 1642 MB of L2 traffic
# (lts__t_bytes) for our 128x176 ping-pong 2x1 s5 on 8192x8192x1024 tn and 1216 MB for cuBLAS's
# kernel of the same tile, stages and cluster (nvjet_sm90_hsh_176x128_64x5_1x2_h_bz), whose A and
# B tiles alone should take ~1330 MB through a two-CTA multicast. One launch each, L2 sectors by
# source unit (the SM's L1/TMA, the fabric between the two L2 partitions) and operation, hit and
# miss. Ours with the uniform warpgroup index (ncu-128x176pp-uw.json).
CALL=${CALL:-call3}
C=bench/results/2026-12-07-session44/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^lts__t_(sectors|bytes)' > $R/lts-metrics.txt; wc -l < $R/lts-metrics.txt
M='regex:^(lts__t_sectors_(srcunit_(tex|ltcfabric)|op_(read|write))(_op_(read|write))?(_lookup_(hit|miss))?\.sum|lts__t_bytes\.sum|sm__cycles_elapsed\.avg|dram__bytes_(read|write)\.sum)$'
for impl in gemmforge cublaslt-autotune; do
  timeout 150 ncu --clock-control none --cache-control none --metrics "$M" --csv --launch-count 40 \
    -k regex:'^(nvjet_sm90_hsh_176|gemmforge_hgemm)' $B/gemmforge bench --shape 8192x8192x1024 --layout tn \
    --impl $impl --configs $C/ncu-128x176pp-uw.json --mode gpu --rounds 1 --out /tmp/n-$impl > $R/ncu-$impl.csv 2>&1
  echo "$impl exit $? ${SECONDS}s"
  python3 - $R/ncu-$impl.csv <<'PY'
import csv, sys, collections
lines = list(csv.reader(open(sys.argv[1])))
head = next((r for r in lines if r and r[0] == "ID"), None)
if head is None: print(open(sys.argv[1]).read()[-2000:]); sys.exit()
rows = [r for r in lines if len(r) == len(head) and r[0].isdigit()]
k, m, v, i = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value"), head.index("ID")
by = collections.defaultdict(dict)
for r in rows: by[(r[k].split("(")[0][:50], int(r[i]))][r[m]] = float(r[v].replace(",", ""))
last = collections.OrderedDict()
for (name, idx), d in sorted(by.items(), key=lambda x: x[0][1]): last[name] = d
for name, d in last.items():
    print(f"  {name}")
    for key in sorted(d): print(f"    {key:60s} {d[key]:16.1f}")
PY
done
q; xz -f $R/*.csv; pack; rm -rf $R; ls -la $OUT
