# Session 37, call 1: session 36's two unrun calls in one device call (any Hopper card; the
# skinny sweep runs only on an H200). First round5.sh's GPU tests (TraceLaunch incl. the never-run
# MainLoopHalvesRunAlone, Runtime, C API) and its H200 skinny-clusters sweep, then round7.sh's
# loads-alone traces by tiling. Cubins compiled on the CPU machine are carried (build/kc36b).
S=bench/results/2026-12-06-session36/commands
(sed 's/timeout -k 5 200 \$B\/gemmforge_gpu_tests/timeout -k 5 120 $B\/gemmforge_gpu_tests/; s/^rm -rf \$R; ls -la \$OUT$/rm -rf $R/' $S/round5.sh > /tmp/r5.sh)
(sed 's/timeout -k 5 150/timeout -k 5 100/' $S/round7.sh > /tmp/r7.sh)
source /tmp/r5.sh
source /tmp/r7.sh
