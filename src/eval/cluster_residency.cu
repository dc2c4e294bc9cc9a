#include "eval/cluster_residency.hpp"

#include "eval/cuda_check.hpp"

namespace gemmforge {

namespace {
// Never launched: the occupancy calculator needs a kernel to place.
__global__ void one_cta_per_sm_probe() {}
}  // namespace

std::array<int, 3> measure_resident_clusters() {
  int device = 0, smem_per_sm = 0, smem_optin = 0;
  GF_CUDA(cudaGetDevice(&device));
  GF_CUDA(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  GF_CUDA(cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // More than half an SM's shared memory: two such CTAs never share an SM, as the Hopper
  // kernels' stage rings do not.
  const int smem = std::min(smem_optin, smem_per_sm / 2 + 1024);
  GF_CUDA(cudaFuncSetAttribute(one_cta_per_sm_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::array<int, 3> clusters{};
  const int sizes[] = {2, 4, 8};
  for (int i = 0; i < 3; ++i) {
    cudaLaunchConfig_t config{};
    config.blockDim = dim3(128, 1, 1);
    config.gridDim = dim3(unsigned(sizes[i]), 1, 1);
    config.dynamicSmemBytes = size_t(smem);
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = unsigned(sizes[i]);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    GF_CUDA(cudaOccupancyMaxActiveClusters(&clusters[i], one_cta_per_sm_probe, &config));
  }
  return clusters;
}

}  // namespace gemmforge
