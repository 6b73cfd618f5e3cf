// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_sections.hpp: the HTML report's chart sections (see html.hpp).
//
// What: each function returns one <section> of the page: throughput over time, response time
// over time (one small chart per type), the response-time distribution over the measurement
// interval. A section with nothing to draw says so in words instead of drawing empty axes.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "report/html_data.hpp"
#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string throughput_section(const timeline& t, const phases& p);
[[nodiscard]] std::string latency_section(const timeline& t, const phases& p);
[[nodiscard]] std::string distribution_section(const run::run_result& r);
// The run's phases as shaded bands, and the time axis every chart over time shares.
[[nodiscard]] std::vector<band> phase_bands(const phases& p);
[[nodiscard]] axis time_axis(const phases& p);
// A legend's button showing and hiding the lines of data-series `key`, coloured by `css`.
[[nodiscard]] std::string legend_button(const std::string& key, const std::string& css,
                                        std::string_view label);
// "new-order" ... "stock-level": a type's key in data-series attributes.
[[nodiscard]] std::string kind_key(txn::kind k);

}  // namespace tpcc::report::html
