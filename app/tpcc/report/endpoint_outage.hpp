// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoint_outage.hpp: an endpoint lost for part of a run over several (--db
// given more than once), as the summary, the JSON and the exit status state it.
//
// What: an endpoint had an outage when transactions were lost on it (their session broke in
// flight) at any time of the run, warm-up and drain included: its series (endpoint_result::
// series) says how many, in which intervals (the span from the first such interval's start to
// the last one's end) and how many sessions its pool replaced. The rule every output follows
// (docs/tpcc/endpoints.md, "An endpoint that dies"): the run completes and reports; an outage
// of any endpoint makes the exit status 3 unless --tolerate-errors, whatever the verdict,
// which still judges the whole run. A run with one endpoint has no endpoint outages (its lost
// transactions are judged by the verdict alone, as before).
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "run_result/result.hpp"

namespace tpcc::report {

struct endpoint_outage {
  std::uint64_t lost = 0;                   // over the whole run
  std::size_t intervals = 0;                // of the series that lost some
  double from_seconds = 0, to_seconds = 0;  // since the terminals started
  std::uint64_t sessions_replaced = 0;      // by its pool, over the run
  [[nodiscard]] bool happened() const noexcept { return lost > 0; }
};

/// `e`'s outage, from its series (from its window's counts when it has none).
[[nodiscard]] endpoint_outage outage_of(const run::endpoint_result& e);

/// "OUTAGE: 12 transactions lost between 4.0 s and 5.0 s of the run (2 intervals), 4 sessions
/// replaced"; empty when `o` did not happen.
[[nodiscard]] std::string outage_text(const endpoint_outage& o);

/// One line per endpoint of `r` that had an outage: "endpoint 2/3 (target): " + outage_text.
[[nodiscard]] std::vector<std::string> endpoint_outages(const run::run_result& r);

}  // namespace tpcc::report
