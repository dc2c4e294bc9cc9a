# Session 31, call 12 (any Hopper card): does a fifth stage make the 128x176 ping-pong read more
# from DRAM? Nsight Compute's DRAM, L2 and L2-to-SM byte counts for 4 and 5 stages on long K
# (4096x4096x8192) and at K = 1024 (16384x12288x1024), tn, one launch after three.
source scripts/device_call.sh call12
pack() { tar czf $OUT/call12.tar.gz -C $OUT call12; }
C=bench/results/2026-12-06-session31/commands
$B/gemmforge env > $R/env.json 2>&1; grep -E '"gpu"' $R/env.json
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__m_xbar2l1tex_read_bytes.sum,sm__cycles_elapsed.avg,gpc__cycles_elapsed.max
prof() {  # name shape configs
  timeout 150 ncu --clock-control none --cache-control none --metrics $M -k regex:gemmforge_hgemm \
    --launch-skip 3 --launch-count 1 \
    $B/gemmforge bench --shape $2 --layout tn --impl gemmforge --configs $3 --mode gpu --rounds 1 --out /tmp/p-$1 > $R/$1.log 2>&1
  echo "== $1 exit $?"; grep -E 'dram__|lts__|l1tex__|cycles_elapsed' $R/$1.log
}
prof s4-longk 4096x4096x8192 $C/pp176-s4.json
prof s5-longk 4096x4096x8192 $C/pp176-s5.json
prof s4-k1024 16384x12288x1024 $C/pp176-s4.json
prof s5-k1024 16384x12288x1024 $C/pp176-s5.json
q; pack; rm -rf $R; ls -la $OUT
