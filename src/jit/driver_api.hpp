// Loading and launching JIT-compiled cubins through the CUDA driver API, without linking libcuda:
// binaries link cudart statically and must start (and say "no GPU") on machines with no driver.
// The driver's entry points are looked up at first use through cudaGetDriverEntryPointByVersion;
// cuda.h is included for its types only.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace gemmforge::jit {

// One module holding one kernel. Move-only; the module is unloaded on destruction. Calls go to
// the CUDA runtime's primary context of the current device, like the rest of gemmforge.
class LoadedKernel {
 public:
  // Throws NoGpuError without a driver or GPU, Error for anything else (a cubin for another
  // architecture, no function of that name: kernels must be extern "C" or named mangled).
  static LoadedKernel load(const std::vector<char>& cubin, const std::string& function_name);

  LoadedKernel(LoadedKernel&&) noexcept;
  LoadedKernel& operator=(LoadedKernel&&) noexcept;
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;
  ~LoadedKernel();

  // Needed before any launch with more than 48 KiB of dynamic shared memory.
  void set_max_dynamic_shared(int bytes);
  void set_attribute(CUfunction_attribute, int value);
  int attribute(CUfunction_attribute) const;  // e.g. CU_FUNC_ATTRIBUTE_NUM_REGS

  // A __device__ variable of the module (an extern "C" name), or nullopt when it has none.
  struct Global {
    CUdeviceptr address = 0;
    size_t bytes = 0;
  };
  std::optional<Global> global(const std::string& symbol) const;

  CUfunction function() const { return function_; }
  const std::string& name() const { return name_; }

 private:
  LoadedKernel() = default;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  std::string name_;
};

// cuLaunchKernelEx; a cluster other than 1x1x1 is passed as the cluster-dimension launch
// attribute. args: one pointer per kernel parameter, as for cuLaunchKernel. programmatic: allow
// programmatic dependent launch (the kernel must griddepcontrol.wait before touching memory).
// cooperative: every CTA of the grid is guaranteed to run at the same time as the others (the
// launch fails if the grid cannot be resident at once), so CTAs may wait on one another.
void launch(const LoadedKernel&, dim3 grid, dim3 block, dim3 cluster, int dynamic_smem, cudaStream_t,
            void** args, bool programmatic = false, bool cooperative = false);

// How many clusters of this shape can be resident on the GPU at once (cuOccupancyMaxActiveClusters):
// the most a persistent launch should start. Clusters must fit in one GPC, so this can be less
// than SMs / cluster size.
int max_active_clusters(const LoadedKernel&, dim3 block, dim3 cluster, int dynamic_smem);

// cuTensorMapEncodeTiled (a TMA descriptor), same arguments; throws Error on failure.
CUtensorMap encode_tensor_map_tiled(CUtensorMapDataType, cuuint32_t rank, void* global_address,
                                    const cuuint64_t* global_dim, const cuuint64_t* global_strides,
                                    const cuuint32_t* box_dim, const cuuint32_t* element_strides,
                                    CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                    CUtensorMapFloatOOBfill);

}  // namespace gemmforge::jit
