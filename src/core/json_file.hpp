// Reading a JSON file whole, with the errors every file gemmforge reads gives alike: what could
// not be read, or where the text stops being JSON, each naming the path.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace gemmforge {

// Throws Error "cannot read WHAT 'PATH'" when the file cannot be opened and "'PATH' is not valid
// JSON: ..." when its text is not JSON. `what` names the file's role ("table", "config file").
nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& what);

}  // namespace gemmforge
