// Compiled kernels on disk, shared by every gemmforge process of a user: <key>.cubin holds the
// SASS, <key>.json what it was built from and what ptxas said. Entries are written atomically
// and checked on every read; a damaged one counts as a miss and is rewritten.
#pragma once
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "jit/nvrtc_compiler.hpp"

namespace gemmforge::jit {

class KernelCache {
 public:
  // $GEMMFORGE_CACHE_DIR, else $XDG_CACHE_HOME/gemmforge/kernels, else
  // $HOME/.cache/gemmforge/kernels (empty variables count as unset). Throws Error when none is set.
  static std::filesystem::path default_dir();

  // Creates dir if needed; throws Error if it cannot.
  explicit KernelCache(std::filesystem::path dir = default_dir());

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path cubin_path(const std::string& key) const { return dir_ / (key + ".cubin"); }
  std::filesystem::path json_path(const std::string& key) const { return dir_ / (key + ".json"); }

  // A result with from_cache=true, or nullopt when the entry is missing or fails any check.
  // Failures remembered by remember_failure() come back too.
  std::optional<CompileResult> load(const std::string& key) const;

  // Successful results go to disk. Failed ones are kept in memory for the life of this object
  // only, so one run does not recompile a failing config, and a later run (perhaps with a fixed
  // toolkit or header) tries again.
  void store(const CompileRequest&, const CompileResult&);

 private:
  std::optional<CompileResult> load_from_disk(const std::string& key) const;

  std::filesystem::path dir_;
  mutable std::mutex mu_;
  std::map<std::string, CompileResult> failures_;
};

// load(), else compile() and store(). Thread-safe. Two threads (or processes) that miss on the
// same key both compile it; the last rename wins, and a reader sees one whole entry or none.
CompileResult compile_cached(const CompileRequest&, KernelCache&);

}  // namespace gemmforge::jit
