# Session 34, call 5 (asked of an H200; runs on either card; the table of the card's model). (1) The Runtime and C API
# GPU tests after the nearby_kernels refactor (6709adb, never run on a GPU) and with the tables'
# fastest kernels (a staged call whose neighbour names cuBLASLt takes our fastest kernel there).
# (2) The 21 unaligned shapes (K or N not a multiple of 8), gpu mode, both layouts, the library
# against cuBLASLt-autotune: with the table as shipped before this session (the same file without
# its fastest kernels, which is all this session changed in it) and with them. (3) The 16 held-out model heads
# (shapes/heldout-unaligned.txt), tn, gpu/offline/server, both tables.
# Call 2 runs the rule call 1 led to: a fastest kernel serves a staged call only if it came within
# 10% of cuBLASLt on a tuned shape within distance 0.5 of the call's (FastestKernel::serves_staged_calls_at).
source scripts/device_call.sh call5
pack() { tar czf $OUT/call5.tar.gz -C $OUT call5; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"|dispatch_table' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
timeout -k 5 150 $B/gemmforge_gpu_tests --gtest_filter='Runtime*:CApi*' > $R/gpu_tests.log 2>&1
echo "gpu tests exit $? $(date +%T)"; grep -E "^\[  (PASSED|FAILED) |FAILED  \]|Failure|Expected|Which is" $R/gpu_tests.log | head -30
q; pack
python3 -c "
import json, sys
t = json.load(open('tables/$card.json'))
for e in t['entries']: e.pop('fastest_kernel', None); e.pop('fastest_speedup', None)
json.dump(t, open('/tmp/old-$card.json', 'w'))"
for v in fastest old; do
  table=tables/$card.json; [ $v = old ] && table=/tmp/old-$card.json
  OUT=$R GEMMFORGE_BIN=$B TABLE=$table NAME=staged-$v \
    LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned-wide.txt" \
    IMPLS=gemmforge-lib,cublaslt-autotune MODES=gpu LIMIT_S=140 scripts/gpu_round.sh lib 2>&1 | tail -3
  q; pack
done
for v in fastest old; do
  table=tables/$card.json; [ $v = old ] && table=/tmp/old-$card.json
  OUT=$R GEMMFORGE_BIN=$B LAYOUT=tn TABLE=$table LIB_SHAPES="--shapes shapes/heldout-unaligned.txt" \
    MODES=gpu,offline,server NAME=heads-$v IMPLS=gemmforge-lib,cublaslt-autotune LIMIT_S=120 scripts/gpu_round.sh lib 2>&1 | tail -3
  q; pack
done
q; pack; rm -rf $R; ls -la $OUT
