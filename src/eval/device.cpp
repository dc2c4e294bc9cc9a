#include "eval/device.hpp"

#include "eval/cluster_residency.hpp"

#include <unistd.h>

namespace gemmforge {

GpuInfo probe_gpu() {
  GpuInfo g;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    g.why_absent = e != cudaSuccess ? std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e)
                                    : "the CUDA runtime sees no device";
    cudaGetLastError();  // clear the sticky-free error so later probes start clean
    return g;
  }
  // The calling thread's current device (0 unless the program chose another).
  if ((e = cudaGetDevice(&g.device)) != cudaSuccess) {
    g.why_absent = std::string("cudaGetDevice: ") + cudaGetErrorString(e);
    return g;
  }
  cudaDeviceProp p{};
  if ((e = cudaGetDeviceProperties(&p, g.device)) != cudaSuccess) {
    g.why_absent = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e);
    return g;
  }
  g.present = true;
  g.name = p.name;
  g.sm_count = p.multiProcessorCount;
  g.cc_major = p.major;
  g.cc_minor = p.minor;
  g.l2_bytes = size_t(p.l2CacheSize);
  g.global_mem_bytes = p.totalGlobalMem;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, g.device) == cudaSuccess) g.pci_bus_id = bus;
  cudaDriverGetVersion(&g.driver_version);
  cudaRuntimeGetVersion(&g.runtime_version);
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
    g.cublas_version = major * 10000 + minor * 100 + patch;
  return g;
}

nlohmann::json environment_json(const GpuInfo& g) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  if (!g.present) return {{"gpu", nullptr}, {"why_no_gpu", g.why_absent}, {"host", host}};
  return {{"gpu", g.name},
          {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
          {"sm_count", g.sm_count},
          {"l2_bytes", g.l2_bytes},
          {"memory_bytes", g.global_mem_bytes},
          {"pci_bus_id", g.pci_bus_id},
          {"cuda_driver", g.driver_version},
          {"cuda_runtime", g.runtime_version},
          {"cublas", g.cublas_version},
          {"residency", g.residency().to_json()},
          {"host", host}};
}

void require_gpu(const GpuInfo& g) {
  if (!g.present)
    throw NoGpuError("no usable NVIDIA GPU: " + g.why_absent +
                ". bench and verify run on a GPU; the CPU tests (ctest) run without one.");
}

DeviceContext::DeviceContext() : info_(probe_gpu()) {
  require_gpu(info_);
  GF_CUDA(cudaSetDevice(info_.device));
  if (info_.cc_major >= 9) info_.resident_clusters = measure_resident_clusters();
  GF_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  GF_CUBLAS(cublasCreate(&cublas_));
  GF_CUBLAS(cublasSetStream(cublas_, stream_));
  GF_CUDA(cudaMalloc(&workspace_, kWorkspaceBytes));
  // cuBLAS would otherwise allocate during a call, which breaks graph capture and per-call cost.
  GF_CUBLAS(cublasSetWorkspace(cublas_, workspace_, kWorkspaceBytes));
  // By default cuBLAS may add split-K partial sums in fp16 ("reduced precision reduction"),
  // which the gate's accumulator probe catches (seen on 77x4095x1000, H200). The f32 track
  // means fp32 accumulation end to end, for the baselines as for our kernels.
  GF_CUBLAS(cublasSetMathMode(cublas_, cublasMath_t(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
  GF_CUBLAS(cublasLtCreate(&cublaslt_));
}

DeviceContext::~DeviceContext() {
  // Destructors must not throw; errors at teardown have nothing left to protect.
  if (cublaslt_) cublasLtDestroy(cublaslt_);
  if (cublas_) cublasDestroy(cublas_);
  if (workspace_) cudaFree(workspace_);
  if (stream_) cudaStreamDestroy(stream_);
}

}  // namespace gemmforge
