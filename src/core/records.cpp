#include "core/records.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <unistd.h>
#include <fstream>
#include <sstream>

#include <zlib.h>

namespace gemmforge {

std::optional<double> BenchRecord::tflops() const {
  if (!median_us || *median_us <= 0) return std::nullopt;
  return shape.flops() / (*median_us * 1e-6) / 1e12;
}

namespace {

nlohmann::json opt(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<double> opt_number(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  if (!j.at(key).is_number()) throw Error(std::string("record field '") + key + "' is not a number");
  return j.at(key).get<double>();
}

template <class T>
T required(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw Error(std::string("record has no field '") + key + "'");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw Error(std::string("record field '") + key + "' has the wrong type");
  }
}

std::string csv_number(const std::optional<double>& v) {
  if (!v) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", *v);
  return buf;
}

}  // namespace

// RFC 4180 quoting: notes and verdicts may contain commas.
std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

nlohmann::json to_json(const BenchRecord& r) {
  return {{"M", r.shape.M},           {"N", r.shape.N},
          {"K", r.shape.K},           {"class", to_string(classify(r.shape))},
          {"layout", to_string(r.layout)}, {"acc", to_string(r.acc)},
          {"impl", r.impl},           {"mode", r.mode},
          {"l2", r.l2},               {"verdict", r.verdict},
          {"median_us", opt(r.median_us)}, {"p25_us", opt(r.p25_us)},
          {"p75_us", opt(r.p75_us)},  {"min_us", opt(r.min_us)},
          {"event_median_us", opt(r.event_median_us)}, {"samples", r.samples},
          {"calls_per_sample", r.calls_per_sample}, {"tflops", opt(r.tflops())},
          {"sm_clock_mhz", opt(r.sm_clock_mhz)}, {"power_w", opt(r.power_w)},
          {"note", r.note}};
}

BenchRecord record_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw Error("a record is not a JSON object");
  BenchRecord r;
  r.shape = {required<int64_t>(j, "M"), required<int64_t>(j, "N"), required<int64_t>(j, "K")};
  if (r.shape.M <= 0 || r.shape.N <= 0 || r.shape.K <= 0) throw Error("record has a non-positive dimension");
  r.layout = parse_layout(required<std::string>(j, "layout"));
  r.acc = parse_accum(required<std::string>(j, "acc"));
  r.impl = required<std::string>(j, "impl");
  r.mode = required<std::string>(j, "mode");
  r.l2 = required<std::string>(j, "l2");
  r.verdict = required<std::string>(j, "verdict");
  r.median_us = opt_number(j, "median_us");
  r.p25_us = opt_number(j, "p25_us");
  r.p75_us = opt_number(j, "p75_us");
  r.min_us = opt_number(j, "min_us");
  r.event_median_us = opt_number(j, "event_median_us");
  r.samples = j.value("samples", 0);
  r.calls_per_sample = j.value("calls_per_sample", 0);
  r.sm_clock_mhz = opt_number(j, "sm_clock_mhz");
  r.power_w = opt_number(j, "power_w");
  r.note = j.value("note", std::string());
  return r;
}

nlohmann::json to_json(const ResultFile& f) {
  nlohmann::json recs = nlohmann::json::array();
  for (const auto& r : f.records) recs.push_back(to_json(r));
  nlohmann::json j = {{"schema", kResultsSchema},       {"complete", f.complete},
                      {"command", f.command},           {"started_utc", f.started_utc},
                      {"finished_utc", f.finished_utc}, {"environment", f.environment},
                      {"settings", f.settings},         {"records", recs}};
  if (!f.stopped.empty()) j["stopped"] = f.stopped;
  return j;
}

ResultFile result_file_from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("schema", "") != kResultsSchema)
    throw Error(std::string("not a gemmforge result file (schema must be '") + kResultsSchema + "')");
  ResultFile f;
  f.complete = j.value("complete", false);
  f.command = j.value("command", "");
  f.started_utc = j.value("started_utc", "");
  f.finished_utc = j.value("finished_utc", "");
  f.stopped = j.value("stopped", "");
  f.environment = j.value("environment", nlohmann::json::object());
  f.settings = j.value("settings", nlohmann::json::object());
  if (!j.contains("records") || !j.at("records").is_array()) throw Error("result file has no records array");
  size_t i = 0;
  for (const auto& r : j.at("records")) {
    try {
      f.records.push_back(record_from_json(r));
    } catch (const Error& e) {
      throw Error("record " + std::to_string(i) + ": " + e.what());
    }
    ++i;
  }
  return f;
}

// Recorded grid runs are committed gzip-compressed (bench/results/*/results.json.gz).
std::string read_maybe_gzipped(const std::filesystem::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files unchanged, too
  if (!f) throw Error("cannot read '" + path.string() + "'");
  std::string data;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) data.append(buf, size_t(n));
  const bool failed = n < 0;
  gzclose(f);
  if (failed) throw Error("'" + path.string() + "' is a damaged gzip file");
  return data;
}

ResultFile read_result_file(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw Error("cannot read result file '" + path.string() + "'");
  if (path.extension() == ".csv") return read_result_csv(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_maybe_gzipped(path));
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + path.string() + "' is not valid JSON: " + e.what());
  }
  try {
    ResultFile f = result_file_from_json(j);
    if (!f.complete) throw Error("the run that wrote it did not finish (complete: false)");
    return f;
  } catch (const Error& e) {
    throw Error("'" + path.string() + "': " + e.what());
  }
}

// RFC 4180: quotes around fields that hold commas, quotes or newlines; "" is a quote.
std::vector<std::vector<std::string>> split_csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> fields(1);
  bool quoted = false, any = false;  // any: the record being read has a character
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
      continue;
    }
    if (c == '\n') {
      if (any) records.push_back(std::move(fields));
      fields.assign(1, std::string());
      any = false;
      continue;
    }
    any = true;
    if (c == '"') quoted = true;
    else if (c == ',') fields.emplace_back();
    else if (c != '\r') fields.back() += c;
  }
  if (quoted) throw Error("unterminated quote");
  if (any) records.push_back(std::move(fields));
  return records;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  auto records = split_csv_records(line);
  if (records.size() > 1) throw Error("a line break outside quotes");
  return records.empty() ? std::vector<std::string>(1) : std::move(records.front());
}

namespace {

std::optional<double> csv_optional_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const auto v = parse_real(s);
  if (!v) throw Error("'" + s + "' is not a number");
  return v;
}

}  // namespace

void read_csv(const std::filesystem::path& path, const std::function<void(const std::vector<std::string>&)>& header,
              const std::function<void(const std::vector<std::string>&)>& row) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read '" + path.string() + "'");
  std::string line;
  try {
    if (!std::getline(in, line)) throw Error("empty file");
    header(split_csv_line(line));
  } catch (const std::exception& e) {
    throw Error("'" + path.string() + "': " + e.what());
  }
  for (size_t n = 2; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    try {
      row(split_csv_line(line));
    } catch (const std::exception& e) {
      throw Error("'" + path.string() + "' row " + std::to_string(n) + ": " + e.what());
    }
  }
}

ResultFile read_result_csv(const std::filesystem::path& path) {
  ResultFile f;
  f.command = "(records read from " + path.string() + "; the CSV carries no environment)";
  const auto expected = split_csv_line(csv_header());
  auto number = [](const std::string& s) {
    const auto v = parse_integer(s);
    if (!v) throw Error("'" + s + "' is not an integer");
    return *v;
  };
  read_csv(
      path,
      [&](const std::vector<std::string>& h) {
        if (h != expected) throw Error("does not start with the results.csv header of gemmforge bench");
      },
      [&](const std::vector<std::string>& v) {
        if (v.size() != expected.size())
          throw Error(std::to_string(v.size()) + " fields, expected " + std::to_string(expected.size()));
        BenchRecord r;
        r.shape = Shape{number(v[0]), number(v[1]), number(v[2])};
        r.layout = parse_layout(v[4]);
        r.acc = parse_accum(v[5]);
        r.impl = v[6];
        r.mode = v[7];
        r.l2 = v[8];
        r.verdict = v[9];
        r.median_us = csv_optional_number(v[10]);
        r.p25_us = csv_optional_number(v[11]);
        r.p75_us = csv_optional_number(v[12]);
        r.min_us = csv_optional_number(v[13]);
        r.event_median_us = csv_optional_number(v[14]);
        r.samples = int(number(v[15]));
        r.calls_per_sample = int(number(v[16]));
        r.sm_clock_mhz = csv_optional_number(v[18]);
        r.power_w = csv_optional_number(v[19]);
        r.note = v[20];
        f.records.push_back(std::move(r));
      });
  f.complete = true;  // a CSV is written only once the run finished (atomically, beside the JSON)
  return f;
}

std::string csv_header() {
  return "M,N,K,class,layout,acc,impl,mode,l2,verdict,median_us,p25_us,p75_us,min_us,"
         "event_median_us,samples,calls_per_sample,tflops,sm_clock_mhz,power_w,note";
}

std::string to_csv_row(const BenchRecord& r) {
  std::ostringstream o;
  o << r.shape.M << ',' << r.shape.N << ',' << r.shape.K << ',' << to_string(classify(r.shape)) << ','
    << to_string(r.layout) << ',' << to_string(r.acc) << ',' << csv_text(r.impl) << ',' << r.mode
    << ',' << r.l2 << ',' << csv_text(r.verdict) << ',' << csv_number(r.median_us) << ','
    << csv_number(r.p25_us) << ',' << csv_number(r.p75_us) << ',' << csv_number(r.min_us) << ','
    << csv_number(r.event_median_us) << ',' << r.samples << ',' << r.calls_per_sample << ','
    << csv_number(r.tflops()) << ',' << csv_number(r.sm_clock_mhz) << ','
    << csv_number(r.power_w) << ',' << csv_text(r.note);
  return o.str();
}

void write_file_atomically(const std::filesystem::path& path, const std::string& contents) {
  // A temporary name of this process's own, so two writers of one path never share a half file.
  const auto tmp = std::filesystem::path(path.string() + "." + std::to_string(getpid()) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + tmp.string() + "'");
    out << contents;
    out.flush();
    if (!out) throw Error("error while writing '" + tmp.string() + "' (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error("cannot rename '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gemmforge
