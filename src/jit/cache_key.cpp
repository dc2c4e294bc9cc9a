#include "jit/cache_key.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <dlfcn.h>
#include <nvrtc.h>

#include "gemmforge/types.hpp"
#include "jit/hash.hpp"

namespace gemmforge::jit {

namespace fs = std::filesystem;

namespace {

// Bumped when the key's recipe changes, so old cache entries stop matching.
constexpr const char* kKeyRecipe = "gemmforge.jit.key/1";

bool is_header(const fs::path& p) {
  const auto ext = p.extension().string();
  return ext == ".cuh" || ext == ".hpp" || ext == ".h" || ext == ".inl";
}

std::string read_whole_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error("cannot read '" + p.string() + "' to fingerprint the JIT include dirs");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string fingerprint_now(const std::vector<std::string>& dirs) {
  Hasher h;
  for (const auto& dir : dirs) {
    // The dir's own path is not hashed: it is in the key already, as an -I option.
    h.add("include dir");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      h.add("missing");
      continue;
    }
    std::vector<fs::path> files;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file() && is_header(it->path())) files.push_back(it->path());
    if (ec) throw Error("cannot list JIT include dir '" + dir + "': " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) h.add(fs::relative(f, dir).generic_string()).add(read_whole_file(f));
  }
  return h.hex();
}

}  // namespace

std::string include_dirs_fingerprint(const std::vector<std::string>& dirs) {
  static std::mutex mu;
  static std::map<std::vector<std::string>, std::string> memo;
  {
    std::lock_guard lock(mu);
    if (auto it = memo.find(dirs); it != memo.end()) return it->second;
  }
  // Hash outside the lock: two threads may both hash one new set, and they agree.
  std::string fp = fingerprint_now(dirs);
  std::lock_guard lock(mu);
  return memo.emplace(dirs, std::move(fp)).first->second;
}

std::string nvrtc_fingerprint() {
  std::string fp = nvrtc_version();
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) && info.dli_fname &&
      std::string_view(info.dli_fname).find("nvrtc") != std::string_view::npos) {
    std::error_code ec;
    const auto size = fs::file_size(info.dli_fname, ec);
    if (!ec) fp.append(" ").append(std::to_string(size));
  }
  return fp;
}

std::string cache_key(const CompileRequest& req) {
  static const std::string nvrtc = nvrtc_fingerprint();
  Hasher h;
  h.add(kKeyRecipe).add(nvrtc).add(req.source);
  for (const auto& opt : compile_options(req)) h.add(opt);
  h.add(include_dirs_fingerprint(req.include_dirs));
  return h.hex();
}

}  // namespace gemmforge::jit
