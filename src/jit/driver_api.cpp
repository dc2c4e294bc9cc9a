#include "jit/driver_api.hpp"

#include <utility>

#include "gemmforge/types.hpp"

namespace gemmforge::jit {

namespace {

// The driver functions we use, typed from cuda.h's declarations (never called directly, so
// nothing links against libcuda).
struct DriverApi {
  decltype(&::cuGetErrorName) get_error_name;
  decltype(&::cuGetErrorString) get_error_string;
  decltype(&::cuModuleLoadData) module_load_data;
  decltype(&::cuModuleUnload) module_unload;
  decltype(&::cuModuleGetFunction) module_get_function;
  decltype(&::cuModuleGetGlobal) module_get_global;
  decltype(&::cuFuncSetAttribute) func_set_attribute;
  decltype(&::cuFuncGetAttribute) func_get_attribute;
  decltype(&::cuLaunchKernelEx) launch_kernel_ex;
  decltype(&::cuTensorMapEncodeTiled) tensor_map_encode_tiled;
  decltype(&::cuOccupancyMaxActiveClusters) occupancy_max_active_clusters;
};

bool no_gpu(cudaError_t e) {
  return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver || e == cudaErrorCallRequiresNewerDriver;
}

template <class Fn>
void resolve(const char* symbol, Fn& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  // CUDART_VERSION: the signatures cuda.h declares are the ones of the toolkit we build with.
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &p, CUDART_VERSION, cudaEnableDefault, &status);
  if (e != cudaSuccess) {
    const std::string msg = std::string("cannot reach the CUDA driver (") + cudaGetErrorString(e) +
                            ") to look up " + symbol + "; running JIT kernels needs an NVIDIA GPU and driver";
    if (no_gpu(e)) throw NoGpuError(msg);
    throw Error(msg);
  }
  if (status != cudaDriverEntryPointSuccess || !p)
    throw Error(std::string("the CUDA driver has no ") + symbol + " for CUDA " + std::to_string(CUDART_VERSION) +
                "; update the NVIDIA driver");
  fn = reinterpret_cast<Fn>(p);
}

DriverApi resolve_all() {
  DriverApi d{};
  resolve("cuGetErrorName", d.get_error_name);
  resolve("cuGetErrorString", d.get_error_string);
  resolve("cuModuleLoadData", d.module_load_data);
  resolve("cuModuleUnload", d.module_unload);
  resolve("cuModuleGetFunction", d.module_get_function);
  resolve("cuModuleGetGlobal", d.module_get_global);
  resolve("cuFuncSetAttribute", d.func_set_attribute);
  resolve("cuFuncGetAttribute", d.func_get_attribute);
  resolve("cuLaunchKernelEx", d.launch_kernel_ex);
  resolve("cuTensorMapEncodeTiled", d.tensor_map_encode_tiled);
  resolve("cuOccupancyMaxActiveClusters", d.occupancy_max_active_clusters);
  return d;
}

// Resolved on first use; a failure throws and the next call tries again.
const DriverApi& driver() {
  static const DriverApi api = resolve_all();
  return api;
}

void check(CUresult r, const char* call, const std::string& doing) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  if (driver().get_error_name(r, &name) != CUDA_SUCCESS || !name) name = "unknown CUresult";
  if (driver().get_error_string(r, &text) != CUDA_SUCCESS || !text) text = "no description";
  throw Error(std::string("CUDA driver error ") + name + " (" + text + ") in " + call + " " + doing);
}

}  // namespace

LoadedKernel LoadedKernel::load(const std::vector<char>& cubin, const std::string& function_name) {
  if (cubin.empty()) throw Error("cannot load kernel '" + function_name + "': its cubin is empty (did the compile fail?)");
  const DriverApi& d = driver();
  // Modules load into the current context: have the runtime create its primary context and make
  // it current on this thread, as any runtime call would.
  if (const cudaError_t e = cudaFree(nullptr); e != cudaSuccess) {
    const std::string msg = std::string("cannot set up the CUDA context (") + cudaGetErrorString(e) +
                            ") to load kernel '" + function_name + "'";
    if (no_gpu(e)) throw NoGpuError(msg);
    throw Error(msg);
  }
  LoadedKernel k;
  k.name_ = function_name;
  check(d.module_load_data(&k.module_, cubin.data()), "cuModuleLoadData",
        "loading the cubin of '" + function_name + "' (built for another GPU architecture?)");
  check(d.module_get_function(&k.function_, k.module_, function_name.c_str()), "cuModuleGetFunction",
        "looking up '" + function_name + "' (is the kernel extern \"C\"?)");
  return k;
}

LoadedKernel::LoadedKernel(LoadedKernel&& o) noexcept
    : module_(std::exchange(o.module_, nullptr)), function_(std::exchange(o.function_, nullptr)), name_(std::move(o.name_)) {}

LoadedKernel& LoadedKernel::operator=(LoadedKernel&& o) noexcept {
  std::swap(module_, o.module_);
  std::swap(function_, o.function_);
  std::swap(name_, o.name_);
  return *this;
}

LoadedKernel::~LoadedKernel() {
  // Errors are ignored: the context may already be gone at exit, and a destructor cannot throw.
  if (module_) driver().module_unload(module_);
}

std::optional<LoadedKernel::Global> LoadedKernel::global(const std::string& symbol) const {
  if (!module_) throw Error("global on an empty LoadedKernel");
  Global g;
  const CUresult r = driver().module_get_global(&g.address, &g.bytes, module_, symbol.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) return std::nullopt;
  check(r, "cuModuleGetGlobal", "looking up '" + symbol + "' in the module of '" + name_ + "'");
  return g;
}

void LoadedKernel::set_attribute(CUfunction_attribute attr, int value) {
  if (!function_) throw Error("set_attribute on an empty LoadedKernel");
  check(driver().func_set_attribute(function_, attr, value), "cuFuncSetAttribute", "on '" + name_ + "'");
}

void LoadedKernel::set_max_dynamic_shared(int bytes) {
  set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

int LoadedKernel::attribute(CUfunction_attribute attr) const {
  if (!function_) throw Error("attribute on an empty LoadedKernel");
  int value = 0;
  check(driver().func_get_attribute(&value, attr, function_), "cuFuncGetAttribute", "on '" + name_ + "'");
  return value;
}

namespace {

// The launch configuration; `attrs` holds its attributes and must outlive it.
CUlaunchConfig launch_config(dim3 grid, dim3 block, dim3 cluster, int dynamic_smem, cudaStream_t stream,
                             CUlaunchAttribute (&attrs)[3], bool programmatic = false, bool cooperative = false) {
  CUlaunchConfig cfg{};
  cfg.gridDimX = grid.x;
  cfg.gridDimY = grid.y;
  cfg.gridDimZ = grid.z;
  cfg.blockDimX = block.x;
  cfg.blockDimY = block.y;
  cfg.blockDimZ = block.z;
  cfg.sharedMemBytes = unsigned(dynamic_smem);
  cfg.hStream = stream;  // cudaStream_t and CUstream are the same type
  cfg.attrs = attrs;
  cfg.numAttrs = 0;
  if (cluster.x * cluster.y * cluster.z != 1) {
    CUlaunchAttribute& a = attrs[cfg.numAttrs++];
    a = CUlaunchAttribute{};
    a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    a.value.clusterDim.x = cluster.x;
    a.value.clusterDim.y = cluster.y;
    a.value.clusterDim.z = cluster.z;
  }
  if (programmatic) {
    CUlaunchAttribute& a = attrs[cfg.numAttrs++];
    a = CUlaunchAttribute{};
    a.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    a.value.programmaticStreamSerializationAllowed = 1;
  }
  if (cooperative) {
    CUlaunchAttribute& a = attrs[cfg.numAttrs++];
    a = CUlaunchAttribute{};
    a.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    a.value.cooperative = 1;
  }
  if (cfg.numAttrs == 0) cfg.attrs = nullptr;
  return cfg;
}

}  // namespace

void launch(const LoadedKernel& k, dim3 grid, dim3 block, dim3 cluster, int dynamic_smem, cudaStream_t stream,
            void** args, bool programmatic, bool cooperative) {
  if (!k.function()) throw Error("launch of an empty LoadedKernel");
  if (dynamic_smem < 0) throw Error("launch of '" + k.name() + "' with negative dynamic shared memory");
  CUlaunchAttribute attrs[3]{};
  const CUlaunchConfig cfg = launch_config(grid, block, cluster, dynamic_smem, stream, attrs, programmatic, cooperative);
  // The message is built only on failure: this is every call's path.
  if (const CUresult r = driver().launch_kernel_ex(&cfg, k.function(), args, nullptr); r != CUDA_SUCCESS)
    check(r, "cuLaunchKernelEx",
          "launching '" + k.name() + "'" +
              (cooperative ? " cooperatively (" + std::to_string(grid.x * grid.y * grid.z) +
                                 " CTAs that must all be resident at once)"
                           : std::string()));
}

int max_active_clusters(const LoadedKernel& k, dim3 block, dim3 cluster, int dynamic_smem) {
  if (!k.function()) throw Error("occupancy query on an empty LoadedKernel");
  CUlaunchAttribute attrs[3]{};
  // The grid must be a multiple of the cluster; its size does not matter to the query.
  const dim3 grid(cluster.x, cluster.y, cluster.z);
  const CUlaunchConfig cfg = launch_config(grid, block, cluster, dynamic_smem, nullptr, attrs);
  int clusters = 0;
  check(driver().occupancy_max_active_clusters(&clusters, k.function(), &cfg), "cuOccupancyMaxActiveClusters",
        "for '" + k.name() + "'");
  return clusters;
}

CUtensorMap encode_tensor_map_tiled(CUtensorMapDataType type, cuuint32_t rank, void* global_address,
                                    const cuuint64_t* global_dim, const cuuint64_t* global_strides,
                                    const cuuint32_t* box_dim, const cuuint32_t* element_strides,
                                    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                    CUtensorMapL2promotion l2_promotion, CUtensorMapFloatOOBfill oob_fill) {
  CUtensorMap map{};
  check(driver().tensor_map_encode_tiled(&map, type, rank, global_address, global_dim, global_strides, box_dim,
                                         element_strides, interleave, swizzle, l2_promotion, oob_fill),
        "cuTensorMapEncodeTiled", "(rank " + std::to_string(rank) + ")");
  return map;
}

}  // namespace gemmforge::jit
