# Session 22, call 4: the reduction probe again, with two more variants (the split-K counters
# through a generation word, no departure): sync_gen and store_gen beside sync, store and red.
set -uo pipefail
tar xJf build/carry4.tar.xz
R=/tmp/call4 && mkdir -p $R
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $R/clocks-start.csv
timeout 90 build/bin-ab/reduction_probe > $R/reduction_probe.csv 2> $R/reduction_probe.err; echo "probe exit $?"
cat $R/reduction_probe.csv; cat $R/reduction_probe.err
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader > $R/clocks-end.csv
tar czf $OUT/call4.tar.gz -C /tmp call4 && ls -la $OUT
