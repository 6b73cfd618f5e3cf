// SPDX-License-Identifier: Apache-2.0
// tests/app/report/json_variants.hpp: hostile variants of a real result document, for the tests
// of the result reader (in process and through `shoal-tpcc merge`).
//
// What: scalars(doc) lists every scalar of a document with the path the reader names it by
// ("transactions[2].histograms.response.max_us"); wrong_type(v) is a value of another JSON type
// than v. Thread-safety: plain functions.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace tpcc::testing {

struct scalar_at {
  nlohmann::json::json_pointer pointer;
  std::string path;  // as the reader's messages name it
};

namespace detail {
inline void collect(const nlohmann::json& v, const nlohmann::json::json_pointer& p,
                    const std::string& path, std::vector<scalar_at>& out) {
  if (v.is_object()) {
    for (const auto& [key, child] : v.items()) {
      collect(child, p / key, path.empty() ? key : path + "." + key, out);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      collect(v[i], p / i, path + "[" + std::to_string(i) + "]", out);
    }
  } else {
    out.push_back({p, path});
  }
}
}  // namespace detail

// Every scalar once per shape: of the entries of an array (transactions, buckets, series,
// workers, ...) only the first holding each field, since the reader reads every entry of an
// array the same way. So the document's many series and buckets do not multiply the cases
// (each case parses the whole document: slow under ASan).
inline std::vector<scalar_at> scalars(const nlohmann::json& doc) {
  std::vector<scalar_at> all;
  detail::collect(doc, nlohmann::json::json_pointer(), "", all);
  std::vector<scalar_at> out;
  std::set<std::string> shapes;
  for (scalar_at& s : all) {
    std::string shape;
    for (std::size_t i = 0; i < s.path.size(); ++i) {
      shape += s.path[i];
      if (s.path[i] == '[') i = s.path.find(']', i) - 1;  // the index dropped: "name[]"
    }
    if (shapes.insert(shape).second) out.push_back(std::move(s));
  }
  return out;
}

// A value of another type: a number for a string or null, a string for a number or a boolean.
inline nlohmann::json wrong_type(const nlohmann::json& v) {
  if (v.is_string() || v.is_null()) return 7;
  if (v.is_boolean()) return "yes";
  return "7";
}

// Names of fields the reader does not read: figures derived from the counts (recomputed on
// reading), descriptions for people, and the server's own figures. A wrong type there changes
// nothing.
inline bool derived(const std::string& path) {
  // The database's own figures: written only; the reader leaves them out and merge drops them.
  if (path.starts_with("server.")) return true;
  // CH-benCHmark's analytic side and the benchmark's name: written only, like the server's.
  if (path == "benchmark" || path == "ch" || path.starts_with("ch.")) return true;
  // A --schedule step's figures and the knee, recomputed from the series and the windows.
  if (path.starts_with("knee.")) return true;
  if (path.starts_with("steps[")) {
    if (path.find("].pacing.") != std::string::npos) return path.ends_with(".kept_up");
    for (const char* read : {"].index", "].offered_tpm", "].start_seconds",
                             "].window_start_seconds", "].end_seconds", "].partial"}) {
      if (path.ends_with(read)) return false;
    }
    return true;
  }
  for (const char* part : {"verdict",
                           "mean_us",
                           "p50_us",
                           "p90_us",
                           "p95_us",
                           "p99_us",
                           "p99_9_us",
                           "p99_99_us",
                           "tpmc",
                           "tpm_total",
                           "completed_per_minute",
                           "round_trips_per_transaction",
                           ".failures",
                           ".completed",
                           "histogram_layout.unit",
                           "histogram_layout.bucket_count",
                           "histogram_layout.bucket_entry",
                           "histogram_layout.rule",
                           "consistency_check.passed",
                           "summary",
                           "capacity_mode",
                           "efficiency",
                           "c_last_delta",
                           "tpc_c_waits"}) {
    if (path.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace tpcc::testing
