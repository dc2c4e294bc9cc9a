// Shared by the GPU tests: one device context per process, and a clean skip without a GPU.
#pragma once
#include <gtest/gtest.h>

#include <memory>

#include "eval/device.hpp"

namespace gemmforge::testing {

inline DeviceContext* device_or_null() {
  static const GpuInfo info = probe_gpu();
  if (!info.present) return nullptr;
  static auto ctx = std::make_unique<DeviceContext>();
  return ctx.get();
}

}  // namespace gemmforge::testing

#define GF_REQUIRE_GPU(ctx_var)                                                                   \
  ::gemmforge::DeviceContext* ctx_var = ::gemmforge::testing::device_or_null();                   \
  if (!ctx_var) GTEST_SKIP() << "no usable NVIDIA GPU (" << ::gemmforge::probe_gpu().why_absent \
                             << "); GPU tests run on the device machine"
