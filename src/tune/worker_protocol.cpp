#include "tune/worker_protocol.hpp"

namespace gemmforge::tune {
namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) { return v ? json(*v) : json(); }
std::optional<double> opt_from(const json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

// The line as a JSON object; the message says what the line looked like when it is not one.
json parse_object(std::string_view line, const char* what) {
  json j = json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::string shown(line.substr(0, 120));
    for (char& ch : shown)
      if (static_cast<unsigned char>(ch) < 0x20) ch = '?';
    throw Error(std::string(what) + " is not a JSON object: '" + shown + (line.size() > 120 ? "...'" : "'"));
  }
  return j;
}

}  // namespace

double EntryResult::spread() const {
  if (!median_us || !p25_us || !p75_us || *median_us <= 0) return 0;
  return (*p75_us - *p25_us) / (2 * *median_us);
}

std::string encode_request(const Request& r, long long id) {
  json j = {{"id", id}};
  std::visit(
      [&](const auto& q) {
        using T = std::decay_t<decltype(q)>;
        if constexpr (std::is_same_v<T, OpenShape>) {
          j["op"] = "open";
          j["M"] = q.shape.M, j["N"] = q.shape.N, j["K"] = q.shape.K;
          j["acc"] = to_string(q.acc);
          j["seed"] = q.seed;
        } else if constexpr (std::is_same_v<T, MeasureCandidate>) {
          j["op"] = "measure";
          j["layout"] = to_string(q.layout);
          j["candidate"] = q.candidate.to_json();
          j["cubin_key"] = q.cubin_key;
        } else if constexpr (std::is_same_v<T, MeasureBaseline>) {
          j["op"] = "baseline";
          j["layout"] = to_string(q.layout);
          j["impl"] = q.impl;
        } else if constexpr (std::is_same_v<T, CompareFinal>) {
          j["op"] = "compare";
          j["layout"] = to_string(q.layout);
          j["rounds"] = q.rounds;
          json entries = json::array();
          for (const auto& e : q.entries) {
            if (e.candidate) entries.push_back({{"candidate", e.candidate->to_json()}, {"cubin_key", e.cubin_key}});
            else entries.push_back({{"baseline", e.baseline}});
          }
          j["entries"] = entries;
        } else {
          j["op"] = "quit";
        }
      },
      r);
  return j.dump();
}

DecodedRequest decode_request(std::string_view line) {
  const json j = parse_object(line, "request");
  try {
    DecodedRequest d;
    d.id = j.at("id").get<long long>();
    const std::string op = j.at("op").get<std::string>();
    if (op == "open") {
      OpenShape o;
      o.shape = {j.at("M").get<int64_t>(), j.at("N").get<int64_t>(), j.at("K").get<int64_t>()};
      if (o.shape.M < 1 || o.shape.N < 1 || o.shape.K < 1) throw Error("dimensions must be at least 1");
      o.acc = parse_accum(j.at("acc").get<std::string>());
      o.seed = j.value("seed", uint64_t(1));
      d.request = o;
    } else if (op == "measure") {
      d.request = MeasureCandidate{parse_layout(j.at("layout").get<std::string>()), KernelCandidate::from_json(j.at("candidate")),
                                   j.at("cubin_key").get<std::string>()};
    } else if (op == "baseline") {
      d.request = MeasureBaseline{parse_layout(j.at("layout").get<std::string>()), j.at("impl").get<std::string>()};
    } else if (op == "compare") {
      CompareFinal c;
      c.layout = parse_layout(j.at("layout").get<std::string>());
      c.rounds = j.value("rounds", 9);
      if (c.rounds < 1) throw Error("rounds must be at least 1");
      for (const auto& e : j.at("entries")) {
        FinalEntry f;
        if (e.contains("candidate")) {
          f.candidate = KernelCandidate::from_json(e.at("candidate"));
          f.cubin_key = e.at("cubin_key").get<std::string>();
        } else {
          f.baseline = e.at("baseline").get<std::string>();
        }
        c.entries.push_back(std::move(f));
      }
      d.request = std::move(c);
    } else if (op == "quit") {
      d.request = Quit{};
    } else {
      throw Error("unknown op '" + op + "'");
    }
    return d;
  } catch (const json::exception& e) {
    throw Error(std::string("malformed request: ") + e.what());
  } catch (const Error& e) {
    throw Error(std::string("malformed request: ") + e.what());
  }
}

std::string encode_reply(const Reply& r) {
  json j = {{"id", r.id}, {"status", r.status}};
  if (!r.why.empty()) j["why"] = r.why;
  if (r.us) j["us"] = *r.us;
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.results.empty()) {
    json rs = json::array();
    for (const auto& e : r.results)
      rs.push_back({{"verdict", e.verdict}, {"median_us", opt(e.median_us)}, {"p25_us", opt(e.p25_us)},
                    {"p75_us", opt(e.p75_us)}, {"min_us", opt(e.min_us)}, {"note", e.note}});
    j["results"] = rs;
  }
  if (!r.environment.is_null()) {
    j["environment"] = r.environment;
    j["protocol"] = r.protocol;
  }
  return j.dump();
}

Reply decode_reply(std::string_view line) {
  const json j = parse_object(line, "reply");
  try {
    Reply r;
    r.id = j.at("id").get<long long>();
    r.status = j.at("status").get<std::string>();
    if (r.status != "ok" && r.status != "fail" && r.status != "error" && r.status != "fatal")
      throw Error("unknown status '" + r.status + "'");
    r.why = j.value("why", std::string());
    r.us = opt_from(j, "us");
    r.note = j.value("note", std::string());
    if (j.contains("results"))
      for (const auto& e : j.at("results")) {
        EntryResult x;
        x.verdict = e.at("verdict").get<std::string>();
        x.median_us = opt_from(e, "median_us");
        x.p25_us = opt_from(e, "p25_us");
        x.p75_us = opt_from(e, "p75_us");
        x.min_us = opt_from(e, "min_us");
        x.note = e.value("note", std::string());
        r.results.push_back(std::move(x));
      }
    if (j.contains("environment")) {
      r.environment = j.at("environment");
      r.protocol = j.value("protocol", 0);
    }
    return r;
  } catch (const json::exception& e) {
    throw Error(std::string("malformed reply: ") + e.what());
  } catch (const Error& e) {
    throw Error(std::string("malformed reply: ") + e.what());
  }
}

}  // namespace gemmforge::tune
