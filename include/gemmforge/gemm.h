/* gemmforge's runtime library for C and other languages (see gemmforge/gemm.hpp for the
 * semantics). Every function returns a status; on failure gemmforge_last_error() gives the
 * message for the calling thread. */
#ifndef GEMMFORGE_GEMM_H
#define GEMMFORGE_GEMM_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gemmforge_handle* gemmforge_handle_t;

typedef enum {
  GEMMFORGE_OK = 0,
  GEMMFORGE_ERROR_NO_GPU = 1,        /* no usable NVIDIA GPU or driver */
  GEMMFORGE_ERROR_INVALID_VALUE = 2, /* a null handle or pointer, a dimension < 1, an unknown layout */
  GEMMFORGE_ERROR_RUNTIME = 3        /* a CUDA, cuBLASLt, NVRTC or driver call failed */
} gemmforge_status_t;

typedef enum { GEMMFORGE_LAYOUT_NN = 0, GEMMFORGE_LAYOUT_TN = 1 } gemmforge_layout_t;

/* table_path: a dispatch table ("none": no table), or NULL for $GEMMFORGE_TABLE, else the table
   shipped for this GPU model. The handle's other options (gemm.hpp's HandleOptions) come from the
   environment: GEMMFORGE_MEASURE_NEW_SHAPES, GEMMFORGE_TABLE_FROM_OTHER_GPU, GEMMFORGE_REPLAY,
   GEMMFORGE_STAGE_UNALIGNED. */
gemmforge_status_t gemmforge_create(gemmforge_handle_t* handle, const char* table_path);
gemmforge_status_t gemmforge_destroy(gemmforge_handle_t handle);
/* C[M×N] = A[M×K]·B, row-major fp16 (A, B, C point to 16-bit halves), fp32 accumulation, on stream. */
gemmforge_status_t gemmforge_hgemm(gemmforge_handle_t handle, int64_t M, int64_t N, int64_t K, const void* A,
                                   const void* B, void* C, gemmforge_layout_t layout, cudaStream_t stream);
const char* gemmforge_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* GEMMFORGE_GEMM_H */
