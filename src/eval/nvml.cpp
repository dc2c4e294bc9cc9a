#include "eval/nvml.hpp"

#include <dlfcn.h>

namespace gemmforge {
namespace {

// The few NVML entry points we use, declared here because the toolkit on the build machines
// ships no nvml.h. Signatures follow NVML's public API; return 0 is NVML_SUCCESS.
using InitFn = int (*)();
using HandleByBusIdFn = int (*)(const char*, void**);
using ClockFn = int (*)(void*, int, unsigned*);
using PowerFn = int (*)(void*, unsigned*);
using TempFn = int (*)(void*, int, unsigned*);
using DriverFn = int (*)(char*, unsigned);
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlTemperatureGpu = 0;

template <class F>
F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

Nvml& Nvml::instance(const std::string& pci_bus_id) {
  static Nvml nvml(pci_bus_id);
  return nvml;
}

Nvml::Nvml(const std::string& pci_bus_id) {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    why_ = "libnvidia-ml.so.1 not found";
    return;
  }
  auto init = symbol<InitFn>(lib_, "nvmlInit_v2");
  auto by_bus = symbol<HandleByBusIdFn>(lib_, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!init || !by_bus) {
    why_ = "libnvidia-ml lacks nvmlInit_v2 or nvmlDeviceGetHandleByPciBusId_v2";
    return;
  }
  if (int rc = init(); rc != 0) {
    why_ = "nvmlInit_v2 returned " + std::to_string(rc);
    return;
  }
  if (int rc = by_bus(pci_bus_id.c_str(), &device_); rc != 0) {
    device_ = nullptr;
    why_ = "no NVML device at PCI bus id " + pci_bus_id + " (code " + std::to_string(rc) + ")";
  }
}

NvmlReading Nvml::read() const {
  NvmlReading r;
  if (!device_) return r;
  unsigned v = 0;
  if (auto f = symbol<ClockFn>(lib_, "nvmlDeviceGetClockInfo"); f && f(device_, kNvmlClockSm, &v) == 0)
    r.sm_clock_mhz = v;
  if (auto f = symbol<PowerFn>(lib_, "nvmlDeviceGetPowerUsage"); f && f(device_, &v) == 0)
    r.power_w = v / 1000.0;
  if (auto f = symbol<TempFn>(lib_, "nvmlDeviceGetTemperature"); f && f(device_, kNvmlTemperatureGpu, &v) == 0)
    r.temperature_c = v;
  return r;
}

std::optional<double> Nvml::max_sm_clock_mhz() const {
  if (!device_) return std::nullopt;
  unsigned v = 0;
  if (auto f = symbol<ClockFn>(lib_, "nvmlDeviceGetMaxClockInfo"); f && f(device_, kNvmlClockSm, &v) == 0) return v;
  return std::nullopt;
}

std::string Nvml::driver_version() const {
  if (!lib_) return {};
  char buf[96] = {};
  if (auto f = symbol<DriverFn>(lib_, "nvmlSystemGetDriverVersion"); f && f(buf, sizeof buf) == 0) return buf;
  return {};
}

}  // namespace gemmforge
