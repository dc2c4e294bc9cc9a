// The C API (include/gemmforge/gemm.h) over gemmforge::Handle: exceptions become statuses, and
// the message stays readable through gemmforge_last_error() on the thread that failed.
#include "gemmforge/gemm.h"

#include <string>

#include "gemmforge/gemm.hpp"

struct gemmforge_handle {
  gemmforge::Handle handle;
  explicit gemmforge_handle(const gemmforge::HandleOptions& o) : handle(o) {}
};

namespace {

thread_local std::string last_error;

template <class Fn>
gemmforge_status_t guarded(Fn fn) {
  try {
    fn();
    return GEMMFORGE_OK;
  } catch (const gemmforge::NoGpuError& e) {
    last_error = e.what();
    return GEMMFORGE_ERROR_NO_GPU;
  } catch (const gemmforge::UsageError& e) {
    last_error = e.what();
    return GEMMFORGE_ERROR_INVALID_VALUE;
  } catch (const std::exception& e) {
    last_error = e.what();
    return GEMMFORGE_ERROR_RUNTIME;
  } catch (...) {
    last_error = "unknown error";
    return GEMMFORGE_ERROR_RUNTIME;
  }
}

}  // namespace

extern "C" {

gemmforge_status_t gemmforge_create(gemmforge_handle_t* handle, const char* table_path) {
  return guarded([&] {
    if (!handle) throw gemmforge::UsageError("gemmforge_create: handle must not be null");
    *handle = nullptr;
    gemmforge::HandleOptions o;
    if (table_path) o.table = table_path;
    *handle = new gemmforge_handle(o);
  });
}

gemmforge_status_t gemmforge_destroy(gemmforge_handle_t handle) {
  return guarded([&] { delete handle; });
}

gemmforge_status_t gemmforge_hgemm(gemmforge_handle_t handle, int64_t M, int64_t N, int64_t K, const void* A,
                                   const void* B, void* C, gemmforge_layout_t layout, cudaStream_t stream) {
  return guarded([&] {
    if (!handle) throw gemmforge::UsageError("gemmforge_hgemm: handle must not be null");
    if (layout != GEMMFORGE_LAYOUT_NN && layout != GEMMFORGE_LAYOUT_TN)
      throw gemmforge::UsageError("gemmforge_hgemm: layout must be GEMMFORGE_LAYOUT_NN or GEMMFORGE_LAYOUT_TN");
    handle->handle.hgemm(M, N, K, static_cast<const __half*>(A), static_cast<const __half*>(B), static_cast<__half*>(C),
                         layout == GEMMFORGE_LAYOUT_TN ? gemmforge::Layout::tn : gemmforge::Layout::nn, stream);
  });
}

const char* gemmforge_last_error(void) { return last_error.c_str(); }

}  // extern "C"
