# `gemmforge report --floors` end to end, as a user runs it: a small results file and a ceilings
# file written here, the class table on stdout, the per-shape rows in the CSV and the Markdown.
# Then the ways a ceilings file is refused. No GPU is needed.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(record M N K impl layout mode us out)
  set(${out} "{\"M\": ${M}, \"N\": ${N}, \"K\": ${K}, \"layout\": \"${layout}\", \"acc\": \"f32\", \"impl\": \"${impl}\", \"mode\": \"${mode}\", \"l2\": \"warm\", \"verdict\": \"pass\", \"median_us\": ${us}, \"p25_us\": ${us}, \"p75_us\": ${us}, \"min_us\": ${us}, \"samples\": 9, \"calls_per_sample\": 1}" PARENT_SCOPE)
endfunction()
record(8192 8192 64 cublaslt-autotune nn gpu 60 r1)
record(8192 8192 64 gemmforge tn gpu 50 r2)
record(64 64 64 cublaslt-autotune nn gpu 3 r3)
record(64 64 64 gemmforge nn gpu 2.5 r4)
record(8192 8192 8192 cublaslt-autotune nn offline 1700 r5)
file(WRITE ${WORK}/results.json "{\"schema\": \"gemmforge.bench/1\", \"complete\": true, \"command\": \"test\", \"records\": [${r1}, ${r2}, ${r3}, ${r4}, ${r5}]}")

function(measurement value unit out)
  set(${out} "{\"value\": ${value}, \"unit\": \"${unit}\"}" PARENT_SCOPE)
endfunction()
measurement(0.6 us lg)
measurement(3.6 us lo)
measurement(9.0 us ls)
measurement(4400 GB/s hr)
measurement(4100 GB/s hw)
measurement(680 TFLOP/s tc)
measurement(12000 GB/s l2)
measurement(1070 TFLOP/s peak)
set(measurements "\"launch_gpu\": ${lg}, \"launch_offline\": ${lo}, \"launch_server\": ${ls}, \"hbm_read\": ${hr}, \"hbm_write\": ${hw}, \"l2_read\": ${l2}, \"fp16_tensor_peak\": ${peak}")
set(environment "\"environment\": {\"l2_bytes\": 62914560}")
file(WRITE ${WORK}/ceilings.json "{\"schema\": \"gemmforge.ceilings/1\", ${environment}, \"measurements\": {${measurements}, \"fp16_tensor\": ${tc}}}")
measurement(0 TFLOP/s zero)
file(WRITE ${WORK}/zero_tensor.json "{\"schema\": \"gemmforge.ceilings/1\", ${environment}, \"measurements\": {${measurements}, \"fp16_tensor\": ${zero}}}")
file(WRITE ${WORK}/no_tensor.json "{\"schema\": \"gemmforge.ceilings/1\", ${environment}, \"measurements\": {${measurements}}}")

execute_process(COMMAND ${GEMMFORGE} report results.json --floors ceilings.json --floors-csv floors.csv --markdown summary.md
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "report --floors: exit ${rc}\n${out}\n${err}")
endif()
# Fails naming `what` unless `text` holds every one of the strings that follow.
function(expect_all_in what text)
  foreach(expected ${ARGN})
    string(FIND "${text}" "${expected}" pos)
    if(pos EQUAL -1)
      message(FATAL_ERROR "${what} lacks '${expected}'\n${text}")
    endif()
  endforeach()
endfunction()
expect_all_in("report --floors: stdout" "${out}" "headroom vs cublaslt-autotune" "| gpu | small-K | 1 | 0/1/0 |"
              "| gpu | tiny | 1 | 1/0/0 |" "| offline | large | 1 | 0/0/1 |")
file(READ ${WORK}/floors.csv csv)
# The 1700 µs call is over the bench's default heavy_call_us (200): timed at steady state.
expect_all_in("floors.csv" "${csv}" "8192,8192,64,small-K,gpu,0,memory," "64,64,64,tiny,gpu,0,launch,"
              "8192,8192,8192,large,offline,1,compute,")
file(READ ${WORK}/summary.md md)
string(FIND "${md}" "| gpu | 8192x8192x64 | small-K | no | memory |" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "summary.md lacks the per-shape floor rows\n${md}")
endif()
message(STATUS "ok: report --floors writes the class table, floors.csv and per-shape Markdown")

# With the two optional ceilings: the steady-state call computes at wgmma's rate alone (800
# TFLOP/s: 2·8192³ / 800e6 = 1374.39 µs, + 0.6 µs launch), and of the 8192×8192×64 call's
# 130 MiB only the 40 MiB a warm L2 keeps move at L2 speed.
measurement(40 MiB kept)
measurement(800 TFLOP/s alone)
file(WRITE ${WORK}/ceilings_measured.json "{\"schema\": \"gemmforge.ceilings/1\", ${environment}, \"measurements\": {${measurements}, \"fp16_tensor\": ${tc}, \"l2_resident\": ${kept}, \"fp16_tensor_alone\": ${alone}}}")
execute_process(COMMAND ${GEMMFORGE} report results.json --floors ceilings_measured.json --floors-csv measured.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "report --floors with l2_resident and fp16_tensor_alone: exit ${rc}\n${out}\n${err}")
endif()
file(READ ${WORK}/measured.csv csv)
expect_all_in("measured.csv" "${csv}" "8192,8192,8192,large,offline,1,compute,1374.99,")
expect_all_in("report --floors stdout" "${out}" "of which a warm L2 keeps 40 MiB, measured" "wgmma alone there 800")
message(STATUS "ok: report --floors uses what a warm L2 keeps and wgmma's rate alone where measured")

function(expect_refusal name expected_text)
  execute_process(COMMAND ${GEMMFORGE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                  WORKING_DIRECTORY ${WORK})
  string(FIND "${err}" "${expected_text}" pos)
  if(NOT rc EQUAL 2 OR pos EQUAL -1)
    message(FATAL_ERROR "${name}: exit ${rc} (expected 2), stderr should name '${expected_text}'\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${name}")
endfunction()
expect_refusal("zero fp16 ceiling" "measurements.fp16_tensor.value must be a positive number"
               report results.json --floors zero_tensor.json)
expect_refusal("missing fp16 ceiling" "measurements.fp16_tensor is missing" report results.json --floors no_tensor.json)
expect_refusal("missing ceilings file" "cannot read ceilings file" report results.json --floors nowhere.json)
expect_refusal("csv without floors" "--floors-csv needs --floors" report results.json --floors-csv refused.csv)
expect_refusal("zero ceiling with a csv" "must be a positive number"
               report results.json --floors zero_tensor.json --floors-csv refused.csv)
if(EXISTS ${WORK}/refused.csv)
  message(FATAL_ERROR "a refused report wrote a file")
endif()

# A merged file from a run stopped early: the report says which and why, above the tables.
record(64 64 64 cublas nn gpu 4 r6)
file(WRITE ${WORK}/stopped.json "{\"schema\": \"gemmforge.bench/1\", \"complete\": true, \"command\": \"test\", \"stopped\": \"time limit of 60 s: 1 of 3 shapes measured\", \"records\": [${r6}]}")
execute_process(COMMAND ${GEMMFORGE} report results.json stopped.json --markdown merged.md
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "report of a stopped run: exit ${rc}\n${out}\n${err}")
endif()
expect_all_in("report of a stopped run: stdout" "${out}" "stopped early"
              "stopped.json: time limit of 60 s: 1 of 3 shapes measured")
file(READ ${WORK}/merged.md merged_md)
expect_all_in("report of a stopped run: markdown" "${merged_md}" "**stopped early**: stopped.json: time limit of 60 s")

# ceilings: without a GPU, exit 3 with the evaluator's message and no file; on a GPU, a
# ceilings.json that report reads.
include(${CMAKE_CURRENT_LIST_DIR}/gpu_command.cmake)
expect_gpu_command("ceilings" "ceilings_out/ceilings.json" ran
                   ceilings --out ceilings_out --rounds 3 --server-calls 20 --warmup-s 0.2)
if(ran STREQUAL "gpu")
  execute_process(COMMAND ${GEMMFORGE} report results.json --floors ceilings_out/ceilings.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "report cannot read the ceilings.json that ceilings wrote: exit ${rc}\n${err}")
  endif()
  message(STATUS "ok: report reads the file ceilings wrote")
endif()
