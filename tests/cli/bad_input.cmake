# Runs the gemmforge CLI the way a user would, with bad input, and checks each case gives a
# clear message and a non-zero exit (and that nothing is written as if complete).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(expect_failure name expected_code expected_text)
  execute_process(COMMAND ${GEMMFORGE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL ${expected_code})
    message(FATAL_ERROR "${name}: exit ${rc}, expected ${expected_code}\nstdout: ${out}\nstderr: ${err}")
  endif()
  string(FIND "${out}${err}" "${expected_text}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${name}: message lacks '${expected_text}'\nstdout: ${out}\nstderr: ${err}")
  endif()
  message(STATUS "ok: ${name}")
endfunction()

file(WRITE ${WORK}/bad_shapes.txt "64 64 64\n64 -3 64\n")
file(WRITE ${WORK}/incomplete.json "{\"schema\": \"gemmforge.bench/1\", \"complete\": false, \"records\": []}")

expect_failure("zero dimension" 2 "must be at least 1" bench --shape 0x64x64)
expect_failure("negative dimension in a file" 2 "bad_shapes.txt:2" bench --shapes bad_shapes.txt)
expect_failure("unreadable shape file" 2 "cannot read shape file" bench --shapes missing.txt)
expect_failure("not a shape" 2 "expected MxNxK" verify --shape 64x64)
expect_failure("unknown implementation" 2 "unknown implementation 'cutlass'" bench --shape 64x64x64 --impl cutlass)
file(WRITE ${WORK}/bad_configs.json "[{\"layout\": \"tn\", \"acc\": \"f32\", \"block_m\": 128, \"block_n\": 260, \"stages\": 4, \"consumers\": 2}]")
expect_failure("invalid kernel config file" 2 "is not valid" kernels --configs bad_configs.json)
expect_failure("unreadable kernel config file" 2 "cannot read config file" kernels --configs nowhere.json)
expect_failure("kernels: unreadable table" 2 "cannot read table" kernels --table nowhere.json)
expect_failure("kernels: a JSON file that is no table" 2 "bad_configs.json' is not a JSON dispatch table" kernels --table bad_configs.json)
file(WRITE ${WORK}/foreign_table.json "{\"schema\": \"gemmforge.table/1\", \"gpu\": \"NVIDIA H200\", \"arch\": \"sm_90a\", \"kernel_source_hash\": \"0000\", \"entries\": [], \"rules\": []}")
expect_failure("kernels: table of other kernel sources" 2 "other kernel sources" kernels --table foreign_table.json)
expect_failure("kernels: table and configs" 2 "excludes" kernels --table foreign_table.json --configs all)
expect_failure("unknown mode" 2 "unknown mode" bench --shape 64x64x64 --mode fast)
expect_failure("unknown layout" 2 "unknown layout" verify --shape 64x64x64 --layout nt)
expect_failure("no shapes" 2 "no shapes given" bench --impl cublas)
expect_failure("negative time limit" 2 "--time-limit must not be negative" bench --shape 64x64x64 --time-limit -5)
expect_failure("incomplete results" 2 "did not finish" report incomplete.json)
expect_failure("unreadable sweep for strategies" 2 "cannot read 'nowhere.csv'" strategies nowhere.csv)
expect_failure("not a sweep for strategies" 2 "not a sweep.csv" strategies bad_shapes.txt)
expect_failure("bad group size" 2 "--group-m takes" bench --shape 64x64x64 --impl gemmforge --group-m 0)
expect_failure("bad cluster reduction" 2 "--cluster-reduction takes off, on or both" bench --shape 64x64x4096 --impl gemmforge --splits 4 --cluster-reduction yes)
expect_failure("cluster reduction without split-K" 2 "give --splits a count above 1" bench --shape 64x64x4096 --impl gemmforge --cluster-reduction on)
expect_failure("bad shared-tile sum" 2 "--shared-tile-sum takes sliced, last or both" bench --shape 64x64x4096 --impl gemmforge --splits sk --shared-tile-sum first)
file(WRITE ${WORK}/bad_results.csv "M,N,K\n1,2,3\n")
expect_failure("foreign results.csv" 2 "results.csv header" report bad_results.csv)
expect_failure("no subcommand" 2 "subcommand" )
expect_failure("ceilings: zero rounds" 2 "--rounds and --server-calls must be at least 1" ceilings --rounds 0)
expect_failure("ceilings: negative warm-up" 2 "--warmup-s must be" ceilings --warmup-s -1)

expect_failure("tune: unknown strategy" 2 "unknown strategy 'magic'" tune --shape 64x64x64 --strategy magic)
expect_failure("tune: zero budget" 2 "--budget must be at least 1" tune --shape 64x64x64 --budget 0)
expect_failure("tune: no shapes" 2 "no shapes given" tune --budget 4)
expect_failure("tune: not a results database" 2 "not a gemmforge results database" tune --shape 64x64x64 --db bad_shapes.txt)
expect_failure("tune: table not JSON" 2 "must end in .json" tune --shape 64x64x64 --out table.txt)
expect_failure("tune: split-K cap" 2 "--max-splits must be" tune --shape 64x64x64 --max-splits 0)
expect_failure("tune: budget tier without a colon" 2 "expected US:N" tune --shape 64x64x64 --budget-under 100)
expect_failure("tune: budget tier time" 2 "is not a time in" tune --shape 64x64x64 --budget-under fast:24)
expect_failure("tune: budget tier below the budget" 2 "must be larger than --budget (6)" tune --shape 64x64x64 --budget 6 --budget-under 100:4)
expect_failure("tune: negative neighbour seeds" 2 "--neighbour-seeds must not be negative" tune --shape 64x64x64 --neighbour-seeds -1)
expect_failure("tune: neighbour evidence without stale finals" 2 "--neighbour-evidence needs --refinal-stale"
               tune --shape 64x64x64 --neighbour-evidence 4)
expect_failure("tune: unreadable split seeds" 2 "cannot read config file" tune --shape 64x64x64 --split-seeds nowhere.json)
file(WRITE ${WORK}/sm80_only.json "[{\"family\": \"sm80\", \"name\": \"sm80_tn_f32_64x64x32_s3_w2x2\"}]")
expect_failure("tune: split seeds of no Hopper tile" 2 "holds no Hopper config" tune --shape 64x64x64 --split-seeds sm80_only.json)
expect_failure("db: export of a non-database" 2 "not a gemmforge results database" db export --db bad_shapes.txt --dir db_out)
expect_failure("db: import from a non-export" 2 "not an exported results database" db import --dir . --db new.sqlite)
expect_failure("db: import over a file" 2 "import writes a new database only" db import --dir . --db bad_shapes.txt)
expect_failure("db: no verb" 2 "subcommand" db)
expect_failure("db carry: no kernels directory" 2 "is not a directory" db carry --db bad_shapes.txt --from-kernels nowhere)
expect_failure("db carry: a non-database" 2 "not a gemmforge results database" db carry --db bad_shapes.txt --from-kernels .)
expect_failure("db carry: no database" 2 "does not exist" db carry --db missing.sqlite --from-kernels .)
expect_failure("db carry: nothing to carry" 2 "name --db, --table or both" db carry --from-kernels .)
expect_failure("db carry: a table without its output" 2 "go together" db carry --from-kernels . --table foreign_table.json)
expect_failure("db fastest: no database" 2 "does not exist"
               db fastest --db missing.sqlite --table foreign_table.json --table-out fastest_out.json)
execute_process(COMMAND ${GEMMFORGE} db import --dir ${SOURCE}/bench/results/2026-11-29-h200-session7/tune
                --db old_tune.sqlite WORKING_DIRECTORY ${WORK} OUTPUT_QUIET)
expect_failure("db fastest: a database of other kernel sources" 2 "holds no results of the table's environment"
               db fastest --db old_tune.sqlite --table foreign_table.json --table-out fastest_out.json)
expect_failure("db fastest: not a table" 2 "is not valid JSON"
               db fastest --db old_tune.sqlite --table bad_shapes.txt --table-out fastest_out.json)
if(EXISTS ${WORK}/fastest_out.json)
  message(FATAL_ERROR "a refused db fastest wrote its output")
endif()
expect_failure("trace: a cluster no rule allows" 2 "cluster sides of 1, 2, 4 or 8 CTAs"
               trace --shape 256x256x4096 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_3x2_mc_pdl)
expect_failure("trace: parts apart without parts" 2 "parts apart orders"
               trace --shape 256x256x4096 --kernel sm90_tn_f32_64x128x64_s6_c1_coop_1x1_tmastore_pa_pdl)
expect_failure("tune: worker timeout" 2 "--timeout must be positive" tune --shape 64x64x64 --timeout 0)
expect_failure("tune: no config of the families" 2 "holds no config of the families searched"
               tune --shape 64x64x64 --configs sm80 --families hopper)
expect_failure("tune: unknown family" 2 "unknown family 'sm70'" tune --shape 64x64x64 --families hopper,sm70)
expect_failure("tune: negative specialize" 2 "--specialize must not be negative" tune --shape 64x64x64 --specialize -1)

# With valid input, a machine without a GPU says so (exit 3) and writes no result files;
# on a GPU machine the same command measures one shape and exits 0.
include(${CMAKE_CURRENT_LIST_DIR}/gpu_command.cmake)
expect_gpu_command("valid bench" "out/results.json" ran
                   bench --shape 128x128x128 --impl cublas --mode gpu --rounds 2 --out out)

# The tuner the same way: no GPU, exit 3 and no table; a GPU, one tiny problem tuned end to end
# through the real worker process.
expect_gpu_command("valid tune" "tune/table.json;tune/table.decisions.csv" ran
                   tune --shape 64x64x64 --layout tn --budget 1 --compile-ahead asked --rounds 2
                   --db tune.sqlite --out tune/table.json)
