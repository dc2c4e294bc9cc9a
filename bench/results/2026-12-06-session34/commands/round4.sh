# Session 34, call 4 (any Hopper card): measured staged plans (gemmforge-lib-measured: each staged
# candidate timed with its copies against cuBLASLt's algorithms, then gated) on the 21 unaligned
# shapes, gpu mode, both layouts, with the table's fastest kernels among the candidates and without
# (the old table: the shipped one less its fastest kernels).
source scripts/device_call.sh call4
pack() { tar czf $OUT/call4.tar.gz -C $OUT call4; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
python3 -c "
import json
t = json.load(open('tables/$card.json'))
for e in t['entries']: e.pop('fastest_kernel', None); e.pop('fastest_speedup', None)
json.dump(t, open('/tmp/old-$card.json', 'w'))"
for v in fastest old; do
  table=tables/$card.json; [ $v = old ] && table=/tmp/old-$card.json
  OUT=$R GEMMFORGE_BIN=$B TABLE=$table NAME=measured-$v \
    LIB_SHAPES="--shapes bench/results/2026-12-06-session33/commands/unaligned-wide.txt" \
    IMPLS=gemmforge-lib-measured,cublaslt-autotune MODES=gpu LIMIT_S=140 scripts/gpu_round.sh lib 2>&1 | tail -3
  q; pack
done
rm -rf $R; ls -la $OUT
