#include "core/json_file.hpp"

#include <fstream>

#include "gemmforge/types.hpp"

namespace gemmforge {

nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read " + what + " '" + path.string() + "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + path.string() + "' is not valid JSON: " + e.what());
  }
}

}  // namespace gemmforge
