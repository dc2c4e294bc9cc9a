// SM clock, power and driver version through NVML, loaded at run time: the CPU machines and CI
// have no libnvidia-ml, and a bench must still run (with nulls) where NVML is missing.
#pragma once
#include <optional>
#include <string>

namespace gemmforge {

struct NvmlReading {
  std::optional<double> sm_clock_mhz, power_w, temperature_c;
};

class Nvml {
 public:
  // Binds to the GPU with this PCI bus id (the CUDA device being measured).
  static Nvml& instance(const std::string& pci_bus_id);
  bool available() const { return device_ != nullptr; }
  const std::string& why_unavailable() const { return why_; }
  NvmlReading read() const;
  // The highest SM clock the GPU may run at (its boost limit), or nullopt without NVML.
  std::optional<double> max_sm_clock_mhz() const;
  std::string driver_version() const;

 private:
  explicit Nvml(const std::string& pci_bus_id);
  void* lib_ = nullptr;
  void* device_ = nullptr;
  std::string why_;
};

}  // namespace gemmforge
