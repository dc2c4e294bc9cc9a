# `gemmforge db carry --table`: a dispatch table tuned under an earlier kernel source is written
# for the current one only when every kernel it serves builds to the same code from both. The
# earlier source is a copy of kernels/ with a comment added (other hash, same code), then with a
# register count changed (other code). Needs NVRTC, no GPU: two builds of one kernel per step.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(COPY ${SOURCE}/kernels DESTINATION ${WORK}/old)
file(APPEND ${WORK}/old/kernels/sm90/epilogue.cuh "\n// an edit that changes no code\n")

function(carry expected_code out_var)
  execute_process(COMMAND ${GEMMFORGE} db carry --from-kernels ${WORK}/old/kernels ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(NOT rc EQUAL ${expected_code})
    message(FATAL_ERROR "db carry ${ARGN}: exit ${rc}, expected ${expected_code}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

# One exact entry of a two-consumer split launch (the shipped table's kind), keyed to a placeholder.
set(entry "{\"M\": 256, \"N\": 4096, \"K\": 16384, \"acc\": \"f32\", \"layout\": \"nn\", \"speedup_vs_cublaslt\": 1.02,
  \"config\": {\"family\": \"sm90\", \"layout\": \"nn\", \"acc\": \"f32\", \"block_m\": 128, \"block_n\": 256, \"block_k\": 64,
    \"stages\": 4, \"consumers\": 2, \"mode\": \"coop\", \"cluster_m\": 1, \"cluster_n\": 1, \"multicast\": false,
    \"tma_store\": false, \"swap_ab\": false},
  \"launch\": {\"persistent\": true, \"group_m\": 0, \"splits\": 4, \"stream_k\": false, \"pdl\": true,
    \"sliced_reduction\": true, \"cluster_reduction\": false}}")
function(write_table hash)
  file(WRITE ${WORK}/old_table.json "{\"schema\": \"gemmforge.table/1\", \"gpu\": \"NVIDIA H200\", \"arch\": \"sm_90a\",
    \"kernel_source_hash\": \"${hash}\", \"entries\": [${entry}], \"rules\": []}")
endfunction()

# A table of neither source is refused; the message names the earlier source's hash.
write_table("0000")
carry(2 out --table old_table.json --table-out new_table.json)
string(REGEX MATCH "kernel source in [^,]*, ([0-9a-f]+)\\)" m "${out}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "no source hash in the refusal: ${out}")
endif()
set(old_hash ${CMAKE_MATCH_1})
if(EXISTS ${WORK}/new_table.json)
  message(FATAL_ERROR "a refused carry wrote the table")
endif()
message(STATUS "ok: a table of another source is refused")

# The same code from both: carried, the new hash in place of the old, the entry unchanged.
write_table(${old_hash})
carry(0 out --table old_table.json --table-out new_table.json)
string(FIND "${out}" "all 1 kernels build to the same code" pos)
if(pos EQUAL -1)
  message(FATAL_ERROR "carry did not report the same code: ${out}")
endif()
file(READ ${WORK}/new_table.json carried)
string(JSON new_hash GET "${carried}" kernel_source_hash)
string(JSON splits GET "${carried}" entries 0 launch splits)
if(new_hash STREQUAL old_hash OR NOT splits EQUAL 4)
  message(FATAL_ERROR "carried table: hash ${new_hash} (was ${old_hash}), splits ${splits}\n${carried}")
endif()
message(STATUS "ok: a table whose kernels build alike is carried")

# Other code (the producer's register count): refused, nothing written, the kernel named.
file(REMOVE ${WORK}/new_table.json)
file(READ ${WORK}/old/kernels/sm90/hgemm_traits.cuh traits)
string(REPLACE "kProducerRegs = 40" "kProducerRegs = 56" traits "${traits}")
file(WRITE ${WORK}/old/kernels/sm90/hgemm_traits.cuh "${traits}")
carry(2 out --table old_table.json --table-out new_table.json)  # the table is of neither source now
string(REGEX MATCH "kernel source in [^,]*, ([0-9a-f]+)\\)" m "${out}")
write_table(${CMAKE_MATCH_1})
carry(1 out --table old_table.json --table-out new_table.json)
string(FIND "${out}" "build to other code" pos)
string(FIND "${out}" "sm90_nn_f32_128x256x64_s4_c2_coop_1x1" named)
if(pos EQUAL -1 OR named EQUAL -1 OR EXISTS ${WORK}/new_table.json)
  message(FATAL_ERROR "a changed kernel was not refused by name, or the table was written: ${out}")
endif()
message(STATUS "ok: a table with a kernel built otherwise is refused")
