# Session 21, call 2 and, if the mbarrier turn wins there (the 64x256 ping-pong's geomean over
# the committed kernels at least 1.02), the grid re-tuned with the working tree's kernels (the
# turn through mbarriers, commit of this script) in the same call: `gemmforge tune` resumed
# from session 13's database carried on the CPU to these kernels (build/tune-carried: every
# result of a candidate whose code is unchanged is kept, so only the ping-pong candidates are
# measured again and the problems that had measured one are decided again), the options it was
# tuned with, the shipped table's kernels as seeds, for TUNE_S seconds (resumed in the next call).
set -uo pipefail
C=bench/results/2026-12-03-h200-session21/commands
bash $C/round2.sh 2>&1 | sed 's/^/[r2] /' | grep -v "^\[r2\] \[" | tail -60
rm -f $OUT/call2.tar.gz  # round2.sh packed it already; repacked below with the tune
g=$(awk '$1=="64x256" && $2=="mbturn" {print $3}' /tmp/call2/ab.txt)
echo "64x256 mbturn geomean: ${g:-none}"
if python3 -c "import sys; sys.exit(0 if float('${g:-0}') >= 1.02 else 1)"; then
  export GEMMFORGE_CACHE_DIR=/tmp/kc-new
  unset GEMMFORGE_DATA_DIR
  T=/tmp/call2/tune-run && mkdir -p $T
  GEMMFORGE_BIN=build/bin-new OUT=$T DB_CSV=build/tune-carried KEEP=1 CONFIGS=bench/configs/tune-both.json LOG=tune-mbturn \
    TUNE_SHAPES="--shapes grid" PRIOR="tables/h200.json" \
    TUNE_ARGS="--budget-under 32:24 --budget-under 128:16 --heavy-finalists 6" \
    TIME_LIMIT_S=${TUNE_S:-330} LIMIT_S=$((${TUNE_S:-330} + 60)) scripts/gpu_round.sh tune 2>&1 | tail -12
  rm -f $T/tune/tune.sqlite*
else
  echo "no re-tune: the turn through mbarriers did not pay"
fi
tar czf $OUT/call2.tar.gz -C /tmp call2 && ls -la $OUT
