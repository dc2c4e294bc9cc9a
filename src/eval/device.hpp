// The GPU the evaluator runs on: what it is, and the handles and workspace every baseline shares.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/residency.hpp"
#include "eval/cuda_check.hpp"

namespace gemmforge {

struct GpuInfo {
  bool present = false;
  std::string why_absent;  // set when present is false: what the CUDA runtime said
  std::string name, pci_bus_id;
  int device = 0;  // CUDA device ordinal: the current device when probed
  int sm_count = 0, cc_major = 0, cc_minor = 0;
  size_t l2_bytes = 0, global_mem_bytes = 0;
  int driver_version = 0, runtime_version = 0, cublas_version = 0;
  // Clusters of 2, 4 and 8 CTAs resident at once (one CTA per SM); measured when a
  // DeviceContext opens a GPU of compute capability 9.0 or later, else 0.
  std::array<int, 3> resident_clusters{};
  Residency residency() const {
    Residency r(sm_count);
    r.clusters = resident_clusters;
    return r;
  }
};

// Never throws: a machine without a GPU or driver gives present = false and a reason.
GpuInfo probe_gpu();
nlohmann::json environment_json(const GpuInfo&);

// Throws a gemmforge::Error that says there is no usable GPU, with the runtime's reason.
void require_gpu(const GpuInfo&);

// One per process: a non-blocking stream (so nothing a candidate puts on the legacy stream is
// silently ordered with ours), cuBLAS and cuBLASLt handles bound to it, and a real workspace.
class DeviceContext {
 public:
  static constexpr size_t kWorkspaceBytes = size_t(64) << 20;  // design.md section 7: ≥ 64 MiB

  DeviceContext();
  ~DeviceContext();
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  const GpuInfo& info() const { return info_; }
  cudaStream_t stream() const { return stream_; }
  cublasHandle_t cublas() const { return cublas_; }
  cublasLtHandle_t cublaslt() const { return cublaslt_; }
  void* workspace() const { return workspace_; }
  size_t workspace_bytes() const { return kWorkspaceBytes; }

 private:
  GpuInfo info_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  cublasLtHandle_t cublaslt_ = nullptr;
  void* workspace_ = nullptr;
};

}  // namespace gemmforge
