// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/endpoint_series.hpp: each endpoint's part of the run's interval series (a run
// over several endpoints: run/endpoints.hpp).
//
// What: at each of the monitor's cuts (monitor::on_cut), cut() reads every endpoint's recorder
// (every phase's counts) and its pool, and appends to that endpoint's series the transactions
// that ended since the previous cut: completed, completed New-Orders, failed, lost (a deferred
// Delivery that failed or was lost too), and per type completed, failed and the p90 of the
// interval's response times. Counters are
// monotonic, so an endpoint's intervals add up to everything its recorder counted by the last
// cut. Nothing is cut with one endpoint.
// Lifetime: the endpoint_set outlives it. Thread-safety: cut() from the monitor's sampling
// coroutine and then its finish(), which the monitor orders (its stop gate); take() after.
#pragma once

#include <array>
#include <vector>

#include "run/endpoints.hpp"
#include "stats/histogram.hpp"
#include "stats/outcomes.hpp"
#include "stats/phase.hpp"
#include "stats/series.hpp"
#include "txn/kind.hpp"

namespace tpcc::run {

class endpoint_series {
 public:
  explicit endpoint_series(const endpoint_set& set);

  /// Cuts the interval ending at `end_seconds` (since the terminals started), begun in `in`.
  void cut(double end_seconds, stats::phase in);
  /// Each endpoint's series, in --db order (empty with one endpoint); once, after the last cut.
  [[nodiscard]] std::vector<std::vector<stats::endpoint_interval>> take();

  // One type's counts at a cut: its outcomes and its completed ones' response histogram.
  struct kind_mark {
    stats::outcome_counts outcomes;
    stats::histogram response;
  };
  using kind_marks = std::array<kind_mark, txn::kind_count>;
  // An endpoint's counts at a cut: per type, and the deferred deliveries' ends.
  struct marks {
    kind_marks kinds;
    stats::outcome_counts deliveries;
  };

 private:
  const endpoint_set& set_;
  std::vector<marks> last_;  // per endpoint, at the previous cut (on the heap: 46 KiB each)
  std::vector<std::vector<stats::endpoint_interval>> series_;
  double last_end_ = 0;
};

}  // namespace tpcc::run
