// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json.hpp: a run's result as a JSON document (--json FILE), and back.
//
// What: write_json() writes every figure of the text summary plus the effective
// configuration, the versions, the NURand constants, the start and end (ISO 8601, UTC), the
// database target (redacted by the caller), the verdict, the cumulative histograms per type
// and view (sparse buckets, with the bucket layout described in "histogram_layout" so other
// tools can read them), the interval series and CH-benCHmark's "ch" (per query its counts and
// latency histogram, when streams ran). read_json() parses such a file back into a
// run_result (what `merge` needs); the verdict and the derived figures (tpmC, percentiles)
// are recomputed from the counts, never read. The schema: docs/tpcc/results.md.
// Fidelity: counts and bucket counts round-trip exactly; a histogram's max is kept; its mean
// comes back computed at the buckets' upper edges (at most 3.1 % high); the steady-clock
// window bounds of stats::snapshot are not written (they mean nothing in another process).
// Errors: values: a message naming the file and, for a malformed document, the field.
// Thread-safety: pure functions (plus the file they read or write).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "run_result/result.hpp"

namespace tpcc::report {

inline constexpr int json_format_version = 2;

// What a result file carries beside the run_result.
struct result_context {
  std::string target;   // the database, password redacted
  std::string version;  // of shoal-tpcc that wrote it
};

struct loaded_result {
  run::run_result result;
  result_context context;
};

// The document as text (pretty-printed).
[[nodiscard]] std::string to_json_text(const run::run_result& r, const result_context& context);
// Writes the document to `file`; nullopt on success, else the error naming the file.
[[nodiscard]] std::optional<std::string> write_json(const std::string& file,
                                                    const run::run_result& r,
                                                    const result_context& context);

// Parses a document; `name` (the file) prefixes every error.
[[nodiscard]] std::variant<loaded_result, std::string> parse_json(std::string_view text,
                                                                  const std::string& name);
// Reads and parses `file`.
[[nodiscard]] std::variant<loaded_result, std::string> read_json(const std::string& file);

}  // namespace tpcc::report
