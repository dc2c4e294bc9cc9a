#include "eval/cuda_check.hpp"

namespace gemmforge::detail {

void throw_cuda(cudaError_t e, const char* expr, const char* file, int line) {
  throw Error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
              ") in " + expr + " at " + file + ":" + std::to_string(line));
}

void throw_cublas(cublasStatus_t s, const char* expr, const char* file, int line) {
  throw Error(std::string("cuBLAS error ") + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) +
              ") in " + expr + " at " + file + ":" + std::to_string(line));
}

}  // namespace gemmforge::detail
