#!/usr/bin/env bash
# One GPU round on the device machine, in one call: run the carried binaries (built on the CPU
# machine with scripts/build.sh), the GPU tests, and the benchmarks of the chosen stage.
# Everything lands under $OUT (the device tool brings it back).
#   scripts/gpu_round.sh check   — env, GPU tests, a small bench of every impl and mode
#   scripts/gpu_round.sh tests   — every GPU test, under TESTS_LIMIT_S
#   scripts/gpu_round.sh grid    — all 1000 grid shapes × both layouts × 4 baselines, gpu+offline
#   scripts/gpu_round.sh server  — GPU tests, server mode on a 100-shape sample, verify on the grid
#   scripts/gpu_round.sh kernels — the Hopper kernel's GPU tests, and a sweep of a config set
#                                  against cuBLASLt on large/mid shapes (nn, tn); CONFIGS, SHAPES
#   scripts/gpu_round.sh class  — SHAPES_FILE × CONFIGS (× SPLITS × PDL × CLUSTER_REDUCTION) sweep vs cuBLASLt-autotune and cuBLAS
#   scripts/gpu_round.sh compile-all — every config of the space through NVRTC
#   scripts/gpu_round.sh tune    — gemmforge tune on TUNE_SHAPES (BUDGET, STRATEGY, CONFIGS, PRIOR, DB_CSV): table.json
#   scripts/gpu_round.sh lib     — the runtime library with TABLE against the baselines on LIB_SHAPES
#                                  (or GRID_PART=i/n of the grid), IMPLS, MODES
# KERNEL_CACHE=dir: cubins compiled on the CPU machine (gemmforge kernels --compile), carried along.
set -uo pipefail
stage=${1:-check}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
BIN=${GEMMFORGE_BIN:-build/bin}
OUT=${OUT:-/tmp/gemmforge-round}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

if [ ! -x "$BIN/gemmforge" ]; then
  echo "no $BIN/gemmforge: build it first (scripts/build.sh) and carry build/bin" >&2
  exit 2
fi
if [ -n "${KERNEL_CACHE:-}" ]; then  # start from the carried cubins (a copy: the carried one is read only)
  mkdir -p /tmp/gemmforge-kernel-cache && cp -r "$KERNEL_CACHE"/. /tmp/gemmforge-kernel-cache/ 2>/dev/null
  export GEMMFORGE_CACHE_DIR=/tmp/gemmforge-kernel-cache
fi
source scripts/clocks.sh
clocks() { record_clocks "$OUT/clocks.csv"; }
clocks
start=$(date +%s)
# A bench run's own --time-limit inside the stage's hard limit: past it no new shape starts, and
# what was measured is written; SIGTERM from timeout (20 s later) ends the shape being measured
# first, and a hard kill (-k 30) follows only a hang.
bench_time_limit() { echo $(($1 > 40 ? $1 - 20 : $1)); }

case "$stage" in
  tests)
    # Every GPU test, each binary under its own time limit (a hung kernel must not eat the call).
    timeout ${TESTS_LIMIT_S:-300} "$BIN/gemmforge_gpu_tests" > "$OUT/gpu_tests.log" 2>&1
    echo "gemmforge_gpu_tests exit $?"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure|Expected|Which is" "$OUT/gpu_tests.log" | head -80
    ;;
  check)
    "$BIN/gemmforge" env | tee "$OUT/env.json"
    "$BIN/gemmforge_gpu_tests" 2>&1 | tee "$OUT/gpu_tests.log" | grep -E "^\[  (PASSED|FAILED|SKIPPED) |OK \]|FAILED|Failure" 
    "$BIN/gemmforge" bench --shape 64x64x64 --shape 77x4095x1000 --shape 4096x4096x4096 --shape 64x16384x16384 \
      --mode gpu,offline,server --out "$OUT/check" 2>&1 | tee "$OUT/check.log" | tail -40
    ;;
  grid)
    "$BIN/gemmforge" bench --shapes grid --layout both --mode gpu,offline \
      --out "$OUT/grid" 2>&1 | tee "$OUT/grid.log" | tail -60
    ;;
  server)
    "$BIN/gemmforge_gpu_tests" > "$OUT/gpu_tests.log" 2>&1; tail -3 "$OUT/gpu_tests.log"
    "$BIN/gemmforge" bench --shapes grid --sample 100 --layout both --mode server \
      --out "$OUT/server" 2>&1 | tee "$OUT/server.log" | tail -30
    "$BIN/gemmforge" verify --shapes grid --layout both --impl cublas,cublaslt-heuristic,cublaslt-autotune \
      --out "$OUT/verify_grid.json" 2>&1 | tee "$OUT/verify.log" | tail -8
    ;;
  kernels)
    # Every step has its own time limit: a kernel that deadlocks must not eat the whole call.
    # CONFIGS: the sweep's config file (default: the exploration set); SHAPES: extra --shape args.
    export GEMMFORGE_CACHE_DIR="$OUT/../kernel-cache"
    timeout 60 "$BIN/gemmforge_cpu_tests" --gtest_filter='JitDriverApi*' > "$OUT/sm90_tests.log" 2>&1
    timeout 200 "$BIN/gemmforge_gpu_tests" --gtest_filter='Sm90Kernel*' >> "$OUT/sm90_tests.log" 2>&1
    grep -E "^\[  (PASSED|FAILED) |OK \]|FAILED|Failure|Expected|Which is|on [0-9]+x" "$OUT/sm90_tests.log" | head -60
    timeout ${SWEEP_LIMIT_S:-300} "$BIN/gemmforge" bench ${SHAPES:---shape 4096x4096x4096 --shape 8192x8192x8192 --shape 2048x2048x1024} \
      --layout both --impl gemmforge,cublaslt-autotune,cublas --configs ${CONFIGS:-bench/configs/explore-large.json} \
      --mode gpu,offline --out "$OUT/sweep" 2>&1 | tee "$OUT/sweep.log" | tail -30
    ;;
  class)
    # A recorded class benchmark: gemmforge's best config per shape (from CONFIGS, gated, the
    # fastest finalist kept) against cuBLASLt-autotune and cuBLAS, both layouts, in MODES.
    # SHAPES_FILE: e.g. shapes/large-a.txt; CONFIGS: e.g. bench/configs/large.json; BENCH_ARGS:
    # more bench options (e.g. --specialize); NAME: the archive's name (default: the shape file's).
    name=${NAME:-$(basename "${SHAPES_FILE:?set SHAPES_FILE}" .txt)}
    limit=${LIMIT_S:-560}
    timeout -k 30 $limit "$BIN/gemmforge" bench --shapes "$SHAPES_FILE" --layout both --time-limit $(bench_time_limit $limit) \
      --impl gemmforge,cublaslt-autotune,cublas --configs "${CONFIGS:?set CONFIGS}" --mode ${MODES:-gpu,offline} \
      --splits "${SPLITS:-1}" --pdl "${PDL:-off}" --cluster-reduction "${CLUSTER_REDUCTION:-off}" ${BENCH_ARGS:-} --out "$OUT/$name" 2>&1 | tee "$OUT/$name.log" | grep -v "^\[compile\]" | tail -45
    # One archive per class: the device tool brings back a limited number of files.
    tar czf "$OUT/$name.tar.gz" -C "$OUT" "$name" "$name.log" && rm -rf "$OUT/$name" "$OUT/$name.log"
    ;;
  tune)
    # gemmforge tune (worker-isolated search, SQLite results, a dispatch table) on TUNE_SHAPES
    # (default: a 100-shape sample of the grid), both layouts; everything packed in tune.tar.gz.
    mkdir -p "$OUT/tune"
    # DB_FROM: resume from an earlier run's database (results are reused only for this GPU,
    # architecture and kernel source).
    # KEEP=1 leaves $OUT/tune unpacked, so a second tune in the same call resumes its database
    # (DB_FROM unset); TUNE_ARGS: more tune options (e.g. --specialize 2); LOG: the log's name.
    # PRIOR: tables and bench sweeps (directories or sweep.csv files, space-separated) whose
    # kernels seed each problem (default the shipped tables/h200.json, so a re-tune keeps its
    # winners in sight; PRIOR=none for a tune from nothing).
    prior=${PRIOR:-tables/h200.json}
    prior_args=""
    if [ "$prior" != none ]; then
      for p in $prior; do
        [ -e "$p" ] || { echo "no prior at $p" >&2; exit 2; }
        prior_args="$prior_args --prior $p"
      done
    fi
    [ -n "${DB_FROM:-}" ] && cp "$DB_FROM" "$OUT/tune/tune.sqlite"
    # DB_CSV: resume from a database kept as CSV files (gemmforge db export; e.g. a committed
    # bench/results/*/tune folder), imported into a new file unless KEEP left one from this call.
    if [ -n "${DB_CSV:-}" ] && [ ! -f "$OUT/tune/tune.sqlite" ]; then
      "$BIN/gemmforge" db import --dir "$DB_CSV" --db "$OUT/tune/tune.sqlite" || exit 2
    fi
    log="$OUT/tune/${LOG:-tune}.log"
    timeout ${LIMIT_S:-300} "$BIN/gemmforge" tune ${TUNE_SHAPES:---shapes grid --sample 100} --layout both \
      --strategy ${STRATEGY:-rl} --budget ${BUDGET:-6} --configs "${CONFIGS:-bench/configs/tune.json}" $prior_args ${TUNE_ARGS:-} \
      --time-limit ${TIME_LIMIT_S:-240} --db "$OUT/tune/tune.sqlite" --out "$OUT/tune/table.json" > "$log" 2>&1
    echo "tune exit $?"
    grep -v "^\[" "$log" | tail -30
    cp "$OUT/tune/table.json" "$OUT/table.json" 2>/dev/null
    # The database as CSV files beside it (what gets committed; the SQLite file does not).
    "$BIN/gemmforge" db export --db "$OUT/tune/tune.sqlite" --dir "$OUT/tune/db" > /dev/null
    if [ -z "${KEEP:-}" ]; then tar czf "$OUT/tune.tar.gz" -C "$OUT" tune && rm -rf "$OUT/tune"; fi
    ;;
  lib)
    # The runtime library (gemmforge/gemm.hpp, call by call) with TABLE against the baselines on
    # LIB_SHAPES, in MODES; packed as NAME.tar.gz. GRID_PART=i/n: the grid's shapes i, i+n, i+2n, ...
    # (a full-grid run split over several device calls; `gemmforge report` merges the parts).
    name=${NAME:-lib}
    shapes=${LIB_SHAPES:---shapes grid --sample 100}
    if [ -n "${GRID_PART:-}" ]; then
      grep -v '^#' shapes/grid.txt | awk -v i="${GRID_PART%/*}" -v n="${GRID_PART#*/}" '(NR - i) % n == 0' \
        > "$OUT/$name-shapes.txt"
      shapes="--shapes $OUT/$name-shapes.txt"
    fi
    table=${TABLE:-$OUT/table.json}
    impls=${IMPLS:-gemmforge-lib,cublaslt-autotune,cublaslt-heuristic,cublas,torch}
    # Without its table the library serves cuBLASLt under its own name: measure nothing then
    # (TABLE=none measures the library without a table on purpose).
    if [[ ",$impls," == *",gemmforge-lib"* && "$table" != none && ! -f "$table" ]]; then
      echo "no table at $table (TABLE=...): nothing measured" >&2
      exit 2
    fi
    # Every kernel the table serves is compiled first, on all cores, outside the bench's time
    # limit: on a fresh machine the library would compile each on first use, one at a time
    # (session 10's full-grid run lost a quarter of its shapes so).
    if [ "$table" != none ] && [ -f "$table" ]; then
      timeout 300 "$BIN/gemmforge" kernels --table "$table" --compile > "$OUT/$name-prepare.log" 2>&1
      echo "table kernels compiled first: exit $?, $(tail -1 "$OUT/$name-prepare.log")"
    fi
    limit=${LIMIT_S:-200}
    GEMMFORGE_TABLE="$table" timeout -k 30 $limit "$BIN/gemmforge" bench --time-limit $(bench_time_limit $limit) \
      $shapes --layout ${LAYOUT:-both} \
      --impl $impls --mode ${MODES:-gpu,offline} \
      --out "$OUT/$name" 2>&1 | tee "$OUT/$name.log" | grep -v "^\[" | tail -40
    mkdir -p "$OUT/$name" && mv "$OUT/$name-prepare.log" "$OUT/$name/prepare.log" 2>/dev/null
    tar czf "$OUT/$name.tar.gz" -C "$OUT" "$name" "$name.log" && rm -rf "$OUT/$name" "$OUT/$name.log"
    ;;
  profile)
    # Nsight Compute on one launch of gemmforge's config (CONFIGS, one entry) and one of cuBLAS's
    # kernel on SHAPE (default 8192x8192x8192, tn). ncu locks the clocks to base: per-clock view.
    shape=${SHAPE:-8192x8192x8192}
    sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section LaunchStats"
    # SOURCE=1: also sample where gemmforge's warps stall, per SASS instruction (the cubins carry
    # line info), written as ncu_gemmforge_source.csv.
    gf_sections=$sections
    [ -n "${SOURCE:-}" ] && gf_sections="$sections --section SourceCounters --warp-sampling-interval 0 -o $OUT/gf --import-source yes"
    timeout 200 ncu $gf_sections -k regex:gemmforge_hgemm --launch-skip 3 --launch-count 1 \
      "$BIN/gemmforge" bench --shape "$shape" --layout tn --impl gemmforge --configs "${CONFIGS:?set CONFIGS}" --mode gpu \
      --splits "${SPLITS:-1}" --pdl "${PDL:-off}" --cluster-reduction "${CLUSTER_REDUCTION:-off}" --rounds 1 \
      --out "$OUT/prof-gf" > "$OUT/ncu_gemmforge.txt" 2>&1
    if [ -n "${SOURCE:-}" ]; then
      ncu --import "$OUT/gf.ncu-rep" --page details >> "$OUT/ncu_gemmforge.txt" 2>&1
      ncu --import "$OUT/gf.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu_gemmforge_source.csv" 2>&1
      rm -f "$OUT/gf.ncu-rep"
      gzip -f "$OUT/ncu_gemmforge_source.csv"
    fi
    timeout 200 ncu $sections -k regex:'^(nvjet|sm90|cutlass)' --launch-skip 3 --launch-count 1 \
      "$BIN/gemmforge" bench --shape "$shape" --layout tn --impl cublas --mode gpu --rounds 1 \
      --out "$OUT/prof-cublas" > "$OUT/ncu_cublas.txt" 2>&1
    rm -rf "$OUT/prof-gf" "$OUT/prof-cublas"
    grep -E "gemmforge_hgemm|nvjet|sm90_|Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Hit|Registers|Executed Ipc|Issue Slots|No Eligible|Warp Cycles Per Issued" "$OUT"/ncu_*.txt | head -60
    ;;
  compile-all)
    # The whole config space through NVRTC on all cores (no GPU needed, but fast on 16 cores).
    export GEMMFORGE_CACHE_DIR="$OUT/../kernel-cache"
    "$BIN/gemmforge" kernels --compile --layout both --acc both --out "$OUT/kernels_compiled.json" 2>&1 | tail -3
    ;;
  *) echo "unknown stage '$stage' (check, tests, grid, server, kernels, class, compile-all, tune, lib, profile)" >&2; exit 2 ;;
esac
rc=$?
clocks
echo "stage $stage finished in $(( $(date +%s) - start )) s, exit $rc"
exit $rc
