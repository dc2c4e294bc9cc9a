# Session 29, call 4 (the H200 of calls 1-2, still warm): call 3's stream-K bench on the H200
# (both sums of a shared tile), then server mode on the 100-shape sample again with call 1's table
# (a second run of grid.sh's last step: server mode moves with the host).
C=bench/results/2026-12-06-session29/commands
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
timeout -k 5 90 $B/gemmforge bench --shapes $C/streamk-shapes.txt --layout both --impl gemmforge,cublaslt-autotune \
  --configs $C/streamk-configs.json --splits 1,auto,sk --shared-tile-sum both --pdl on --mode gpu --finalists 21 --time-limit 70 \
  --out $R/sk > $R/sk.log 2>&1
echo "bench exit $? $(date +%T)"; grep -E "\(best\) +cublaslt" $R/sk.log
q; pack
OUT=$R GEMMFORGE_BIN=$B TABLE=tables/h200.json MODES=server NAME=lib-server IMPLS=gemmforge-lib,cublaslt-autotune \
  LIMIT_S=180 scripts/gpu_round.sh lib 2>&1 | grep -E "\(best\) +cublas|exit|stopped" | head -10
q; pack; rm -rf $R; ls -la $OUT
