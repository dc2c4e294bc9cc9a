#include "runtime/table_choice.hpp"

#include <cstdlib>

#include "core/shape.hpp"

namespace gemmforge {

std::string shipped_table(const std::string& gpu_name) {
  const std::string model = shipped_table_model(gpu_name);
  if (model.empty()) return {};
  try {
    return find_data_file("tables/" + model + ".json").string();
  } catch (const Error&) {
    return {};
  }
}

TableChoice choose_table(const std::string& named, const std::string& gpu,
                         const std::function<TableExpectation()>& expect) {
  TableChoice c;
  std::string path = named;
  if (path.empty())
    if (const char* env = std::getenv("GEMMFORGE_TABLE"); env && *env) path = env;
  if (path.empty()) path = shipped_table(gpu);
  if (path.empty() || path == "none") {
    c.status = path == "none" ? "no table (switched off): every call goes to cuBLASLt"
                              : "no table for " + gpu + ": every call goes to cuBLASLt";
    return c;
  }
  try {
    c.table = load_table(path, expect());
    c.of_other_gpu = c.table->gpu != gpu;
    c.status = "table " + path + ": " + std::to_string(c.table->exact.size()) + " shapes, " +
               std::to_string(c.table->rules.size()) + " class rules";
    if (c.of_other_gpu) c.status += " (made on " + c.table->gpu + ": its kernels only, every plan measured on this GPU)";
  } catch (const Error& e) {
    c.status = std::string("table not used, every call goes to cuBLASLt: ") + e.what();
  }
  return c;
}

}  // namespace gemmforge
