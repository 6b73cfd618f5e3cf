// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/render.hpp: comparisons as text, JSON and HTML.
//
// What: each renders every comparison of one `compare` command (the later files each against
// the first) in the same order: the files, the configuration differences first (the likely
// causes apart), then one row per figure with both values, their intervals, the difference
// (absolute and %) and the judgement, then the figures beyond noise and, with
// --fail-if-slower, the gate's outcome. The JSON's schema and the rules: docs/tpcc/compare.md.
// Thread-safety: pure functions (write_* write the one file named).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace tpcc::compare {

struct compare_report {
  std::vector<comparison> comparisons;   // each later file against the first
  std::optional<double> fail_if_slower;  // --fail-if-slower PCT

  /// True when --fail-if-slower was given and some comparison's gate() is not empty.
  [[nodiscard]] bool gate_failed() const;
};

[[nodiscard]] std::string format_text(const compare_report& r);
/// The decimals a row's figure is shown with: 1 for throughput; for milliseconds 1 from 100,
/// 2 from 1, else 3 (a value of a few microseconds still shows).
[[nodiscard]] int decimals(const row& r, double value);
[[nodiscard]] std::string to_json_text(const compare_report& r);
[[nodiscard]] std::string format_html(const compare_report& r);

/// Each writes its rendering to `path`: nullopt when written, else why not (naming the path).
[[nodiscard]] std::optional<std::string> write_json(const compare_report& r,
                                                    const std::string& path);
[[nodiscard]] std::optional<std::string> write_html(const compare_report& r,
                                                    const std::string& path);

}  // namespace tpcc::compare
