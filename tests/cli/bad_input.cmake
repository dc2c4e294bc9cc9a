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
expect_failure("unknown mode" 2 "unknown mode" bench --shape 64x64x64 --mode fast)
expect_failure("unknown layout" 2 "unknown layout" verify --shape 64x64x64 --layout nt)
expect_failure("no shapes" 2 "no shapes given" bench --impl cublas)
expect_failure("incomplete results" 2 "did not finish" report incomplete.json)
expect_failure("no subcommand" 2 "subcommand" )

# With valid input, a machine without a GPU says so (exit 3) and writes no result files;
# on a GPU machine the same command measures one shape and exits 0.
execute_process(COMMAND ${GEMMFORGE} bench --shape 128x128x128 --impl cublas --mode gpu --rounds 2 --out out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
if(rc EQUAL 3)
  string(FIND "${err}" "no usable NVIDIA GPU" pos)
  if(pos EQUAL -1 OR EXISTS ${WORK}/out/results.json)
    message(FATAL_ERROR "no-GPU case: unclear message or a results file was written\n${err}")
  endif()
  message(STATUS "ok: missing GPU reported (${err})")
elseif(rc EQUAL 0)
  if(NOT EXISTS ${WORK}/out/results.json)
    message(FATAL_ERROR "GPU case: exit 0 but no results.json")
  endif()
  message(STATUS "ok: measured on a GPU")
else()
  message(FATAL_ERROR "valid bench: unexpected exit ${rc}\n${out}\n${err}")
endif()
