#include "cli/torch_runner.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gemmforge::cli {
namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

ResultFile run_torch_bench(const BenchOptions& o, const std::string& python, const std::filesystem::path& dir,
                           const std::string& command) {
  const auto script = find_data_file("scripts/torch_bench.py");
  const auto shapes_file = dir / "torch_shapes.txt";
  const auto out_file = dir / "torch_results.json";
  {
    std::ofstream f(shapes_file);
    for (const auto& s : o.shapes) f << s.M << ' ' << s.N << ' ' << s.K << '\n';
    if (!f) throw Error("cannot write " + shapes_file.string());
  }
  std::string layouts, modes;
  for (auto l : o.layouts) layouts += (layouts.empty() ? "" : ",") + to_string(l);
  for (auto m : o.modes) modes += (modes.empty() ? "" : ",") + to_string(m);
  const auto& t = o.timing;
  std::ostringstream cmd;
  cmd << shell_quote(python) << ' ' << shell_quote(script.string()) << " --shapes " << shell_quote(shapes_file.string())
      << " --layouts " << layouts << " --modes " << modes << " --l2 " << (t.cold_l2 ? "cold" : "warm")
      << " --rounds " << t.rounds << " --min-sample-us " << t.min_sample_us << " --server-calls " << t.server_calls
      << " --server-gap-us " << t.server_gap_us << " --seed " << t.seed << " --heavy-call-us " << t.heavy_call_us
      << " --heavy-warmup-s " << t.heavy_warmup_s << " --acc " << to_string(o.acc)
      << " --out " << shell_quote(out_file.string()) << " --command " << shell_quote(command);
  std::error_code ec;
  std::filesystem::remove(out_file, ec);
  const int status = std::system(cmd.str().c_str());
  std::filesystem::remove(shapes_file, ec);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error("the torch benchmark (" + script.string() + ") failed with exit status " +
                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                "; its message is above. Leave torch out with --impl, or point --python at a Python with torch");
  ResultFile f = read_result_file(out_file);
  std::filesystem::remove(out_file, ec);
  return f;
}

}  // namespace gemmforge::cli
