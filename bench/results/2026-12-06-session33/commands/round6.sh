# Session 33, call 6 (any Hopper card; the table of the card's model). tn heads and C-only odd N:
# the library (staged: C' written by a TMA-store kernel, then copied out) against Hopper configs
# that write C in place with direct stores (2-byte stores where a row starts odd; TMA-store twins,
# refused on odd N, timed on the aligned neighbours), every finalist re-timed (sweep.csv), gpu mode.
source scripts/device_call.sh call6
pack() { tar czf $OUT/call6.tar.gz -C $OUT call6; }
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
card=h100; grep -q '"gpu": "NVIDIA H200' $R/env.json && card=h200
C=bench/results/2026-12-06-session33/commands
GEMMFORGE_TABLE=tables/$card.json timeout -k 10 400 $B/gemmforge bench --shapes $C/heads.txt --layout tn --mode gpu \
  --impl gemmforge,gemmforge-lib,cublaslt-autotune --configs $C/heads-direct.json --finalists 99 --time-limit 380 \
  --out $R/heads > $R/heads.log 2>&1; echo "bench exit $?"; grep -E "gemmforge(-lib)? \(tn\) +cublaslt-autotune +all" $R/heads.log
q; pack; rm -rf $R; ls -la $OUT
