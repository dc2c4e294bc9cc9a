// Which dispatch table a handle uses, and why: the one named, else $GEMMFORGE_TABLE, else the
// table shipped for the GPU's model. Host-only, so `gemmforge env` reports the same choice a
// Handle makes.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "runtime/table.hpp"

namespace gemmforge {

// The table shipped for a GPU model (tables/h200.json for an "NVIDIA H200", tables/h100.json for
// an "NVIDIA H100 80GB HBM3"), or "" if none is.
std::string shipped_table(const std::string& gpu_name);

struct TableChoice {
  std::optional<Table> table;  // none: every call goes to cuBLASLt
  bool of_other_gpu = false;   // let in by TableExpectation::other_gpu_allowed
  std::string status;          // what Handle::table_status() says
};

// `named`: HandleOptions::table ("" for the default, "none" for no table); `gpu`: the running GPU's
// name. `expect` says what the table must match; it is asked only once there is a table to load
// (it reads the kernel headers). An Error from it, or from a table that is unreadable, damaged,
// or made for another GPU (unless allowed), architecture or kernel source, is caught: no table,
// and a status that says why.
TableChoice choose_table(const std::string& named, const std::string& gpu,
                         const std::function<TableExpectation()>& expect);

}  // namespace gemmforge
