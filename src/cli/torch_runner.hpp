// torch.matmul is measured by scripts/torch_bench.py in the GPU machine's Python, with the same
// protocol and schema; this runs it as a child process and reads its records back.
#pragma once
#include <filesystem>
#include <string>

#include "core/records.hpp"
#include "eval/bench.hpp"

namespace gemmforge::cli {

ResultFile run_torch_bench(const BenchOptions&, const std::string& python, const std::filesystem::path& work_dir,
                           const std::string& command);

}  // namespace gemmforge::cli
