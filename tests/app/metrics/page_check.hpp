// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/page_check.hpp: what the tests read from an exposition page: a sample's
// value by its full text (name and labels), and the format's rules every page must keep.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tpcc::testing {

// The value of the sample whose name and labels are exactly `series` (e.g.
// `x_total{type="New-Order"}`), or nullopt when the page has no such line.
[[nodiscard]] std::optional<double> sample_value(const std::string& page,
                                                 const std::string& series);
// What breaks the text format's rules on `page` (names, HELP and TYPE before a family's
// samples, each family once, histogram buckets cumulative with +Inf == _count): one line per
// problem; empty when none.
[[nodiscard]] std::vector<std::string> format_problems(const std::string& page);

}  // namespace tpcc::testing
