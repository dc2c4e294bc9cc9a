// Programmatic dependent launch (PDL): a kernel launched with programmatic stream serialization
// may start while the kernel before it in the stream is still running. It must wait for that
// kernel's completion (and its memory) before touching global memory; it lets its own dependent
// start as early as it likes. Both are no-ops when the launch did not ask for PDL.
#pragma once
#include "ptx/common.cuh"

namespace gemmforge::ptx {

// Blocks until every prerequisite grid has completed and its memory operations are visible.
__device__ inline void grid_dependency_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

// Allows the next grid in the stream to be scheduled now (it still waits for this one to finish
// before it reads or writes memory).
__device__ inline void grid_dependents_launch() { asm volatile("griddepcontrol.launch_dependents;" :::); }

}  // namespace gemmforge::ptx
