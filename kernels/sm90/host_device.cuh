// Functions the kernel and the host both compile (the shared arithmetic: stream-K's deal, the fast
// walk's divisions, the walk along N, the feed's size): __host__ __device__ under nvcc and NVRTC,
// plain functions under the host's C++ compiler.
#pragma once

#if defined(__CUDACC__)
#define GEMMFORGE_HOST_DEVICE __host__ __device__
#else
#define GEMMFORGE_HOST_DEVICE
#endif
