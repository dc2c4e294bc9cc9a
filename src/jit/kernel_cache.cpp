#include "jit/kernel_cache.hpp"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/records.hpp"
#include "gemmforge/types.hpp"
#include "jit/cache_key.hpp"
#include "jit/hash.hpp"

namespace gemmforge::jit {

namespace fs = std::filesystem;

namespace {

constexpr const char* kEntrySchema = "gemmforge.kernel-cache/1";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Unique per process and per call, and in the entry's own directory so rename() is atomic.
// (core's write_file_atomically uses one fixed ".tmp" name, which two processes writing the same
// entry would share.)
fs::path temp_name(const fs::path& path) {
  static std::atomic<unsigned long> counter{0};
  return path.string() + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
}

void write_atomically(const fs::path& path, std::string_view bytes) {
  const fs::path tmp = temp_name(path);
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + tmp.string() + "' in the kernel cache");
    out.write(bytes.data(), std::streamsize(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      throw Error("error while writing '" + tmp.string() + "' in the kernel cache (disk full?)");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(tmp, ec);
    throw Error("cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + why);
  }
}

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return s.str();
}

bool has_elf_magic(std::string_view b) {
  return b.size() >= 4 && b[0] == '\x7f' && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

}  // namespace

fs::path KernelCache::default_dir() {
  if (auto d = env("GEMMFORGE_CACHE_DIR"); !d.empty()) return d;
  if (auto x = env("XDG_CACHE_HOME"); !x.empty()) return fs::path(x) / "gemmforge" / "kernels";
  if (auto h = env("HOME"); !h.empty()) return fs::path(h) / ".cache" / "gemmforge" / "kernels";
  throw Error("no directory for the kernel cache: set GEMMFORGE_CACHE_DIR (or HOME)");
}

KernelCache::KernelCache(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw Error("cannot create the kernel cache directory '" + dir_.string() + "'" +
                (ec ? ": " + ec.message() : std::string()) + "; set GEMMFORGE_CACHE_DIR to a writable directory");
}

std::optional<CompileResult> KernelCache::load(const std::string& key) const {
  {
    std::lock_guard lock(mu_);
    if (auto it = failures_.find(key); it != failures_.end()) {
      CompileResult r = it->second;
      r.from_cache = true;
      r.seconds = 0;
      return r;
    }
  }
  return load_from_disk(key);
}

// Every check that fails means "miss": the caller recompiles and the rewrite replaces the entry.
std::optional<CompileResult> KernelCache::load_from_disk(const std::string& key) const {
  const auto json_text = read_file(json_path(key));
  if (!json_text) return std::nullopt;
  const auto cubin = read_file(cubin_path(key));
  if (!cubin || !has_elf_magic(*cubin)) return std::nullopt;

  CompileResult r;
  try {
    const auto j = nlohmann::json::parse(*json_text);
    if (j.at("schema").get<std::string>() != kEntrySchema || j.at("key").get<std::string>() != key) return std::nullopt;
    if (j.at("cubin_bytes").get<size_t>() != cubin->size() || j.at("cubin_hash").get<std::string>() != hash128_hex(*cubin))
      return std::nullopt;
    r.log = j.at("log").get<std::string>();
    r.registers = j.at("registers").get<int>();
    r.spill_bytes = j.at("spill_bytes").get<int>();
    r.shared_bytes = j.at("shared_bytes").get<int>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  r.ok = true;
  r.cubin.assign(cubin->begin(), cubin->end());
  r.key = key;
  r.from_cache = true;
  r.seconds = 0;
  return r;
}

void KernelCache::store(const CompileRequest& req, const CompileResult& res) {
  if (!res.ok) {
    std::lock_guard lock(mu_);
    failures_[res.key] = res;
    return;
  }
  const std::string_view cubin(res.cubin.data(), res.cubin.size());
  const nlohmann::json j = {{"schema", kEntrySchema},
                            {"key", res.key},
                            {"name", req.name},
                            {"arch", req.arch},
                            {"options", compile_options(req)},
                            {"nvrtc_version", nvrtc_version()},
                            {"registers", res.registers},
                            {"spill_bytes", res.spill_bytes},
                            {"shared_bytes", res.shared_bytes},
                            {"seconds", res.seconds},
                            {"created_utc", utc_now_iso8601()},
                            {"cubin_bytes", cubin.size()},
                            {"cubin_hash", hash128_hex(cubin)},
                            {"log", res.log}};
  // The cubin first: a json that exists always describes a cubin that was complete at its time,
  // and the size and hash checks in load_from_disk catch any mix of two writers' files.
  write_atomically(cubin_path(res.key), cubin);
  // replace: a log quoting non-UTF-8 source bytes must not stop the entry from being written.
  write_atomically(json_path(res.key), j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

CompileResult compile_cached(const CompileRequest& req, KernelCache& cache) {
  if (auto hit = cache.load(cache_key(req))) return *hit;
  CompileResult res = compile(req);
  cache.store(req, res);
  return res;
}

}  // namespace gemmforge::jit
