# Session 43, call 9 (any Hopper card): where a K = 1024 launch's clocks go, ours against
# cuBLASLt's pick, on 8192x8192x1024 tn (below the power cap in call 3: 1635 MHz, 439 W). Nsight
# Compute per launch (clocks and caches as they are): duration, elapsed cycles, tensor-pipe
# activity, instructions executed, shared-memory wavefronts, DRAM and L2 bytes. Ours: the
# cooperative 128x256 2x1 build (ncu-128x256-2x1.json; CONFIGS=another file of one config);
# cuBLASLt: every algorithm autotune times, its pick launched last (IMPLS=gemmforge: ours only).
# Call 10 ran it for each ncu-128x176pp-*.json with IMPLS=gemmforge. On an H200: round1.sh's H200
# branch (the twin tune) instead.
CALL=${CALL:-call9}
C=bench/results/2026-12-07-session43/commands
source scripts/device_call.sh $CALL
pack() { tar cJf $OUT/$CALL.tar.xz -C $OUT $CALL; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
if grep -q '"gpu": "NVIDIA H200' $R/env.json; then
  rm -rf $R; CALL=$CALL bash $C/round1.sh; exit
fi
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__cycles_active.avg
for impl in ${IMPLS:-gemmforge cublaslt-autotune}; do
  timeout 150 ncu --clock-control none --cache-control none --metrics $M --csv --launch-count 60 \
    -k regex:'^(nvjet|sm90|cutlass|gemmforge_hgemm)' $B/gemmforge bench --shape 8192x8192x1024 --layout tn \
    --impl $impl --configs $C/${CONFIGS:-ncu-128x256-2x1.json} --mode gpu --rounds 1 --out /tmp/n-$impl > $R/ncu-$impl.csv 2>&1
  echo "$impl exit $?"
  python3 - $R/ncu-$impl.csv <<'PY'
import csv, sys, collections
lines = list(csv.reader(open(sys.argv[1])))
head = next(r for r in lines if r and r[0] == "ID")
rows = [r for r in lines if len(r) == len(head) and r[0].isdigit()]
k, m, v, i = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value"), head.index("ID")
by = collections.defaultdict(dict)
for r in rows: by[(r[k].split("(")[0][:60], int(r[i]))][r[m]] = float(r[v].replace(",", ""))
last = collections.OrderedDict()
for (name, idx), d in sorted(by.items(), key=lambda x: x[0][1]): last[name] = d  # each kernel's last launch
for name, d in last.items():
    print(f"  {name}")
    for key in sorted(d): print(f"    {key:70s} {d[key]:16.1f}")
PY
  q
done
xz -f $R/*.csv
pack; rm -rf $R; ls -la $OUT
