// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/estimate.hpp: a result's figures with their confidence intervals, as the
// comparison judges them.
//
// What: a figure measured by a run is a sample; comparing two runs asks whether their
// intervals overlap. The intervals are the verdict's (report/confidence.hpp: simultaneous,
// 99.999 %, z = 4.417), so "beyond noise" means what a FAIL of the verdict means:
//   throughput  (completed transactions of a type, or of all, per minute of the measurement
//               interval) the wider of the terminal-group interval (the groups' counts as
//               independent samples of the rate per terminal, a ratio estimator with Student t,
//               as the verdict's cluster shares) and the Poisson interval of the count (that
//               one alone with fewer than report::min_cluster_groups groups);
//   percentile  (of a type's response times) the distribution-free one: the ranks of the Wilson
//               interval of the share p around the count, read from the histogram's buckets
//               (the lower rank's bucket from its lower edge, the upper rank's to its upper
//               edge), its low end then lowered by the client's own timer lateness (p99 of
//               its probes over the run): a response time measured by a client whose timers
//               woke that late may be that much longer than the database made it, so a
//               difference within it is not laid at the database's door.
// Definitions: docs/tpcc/compare.md. Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>

#include "report/confidence.hpp"
#include "run_result/result.hpp"
#include "stats/histogram.hpp"
#include "txn/kind.hpp"

namespace tpcc::compare {

struct estimate {
  double value = 0;
  report::interval ci{};
  bool known = false;  // false: nothing measured (no window, an empty histogram)
};

/// Completed transactions of `k` (nullopt: of every type) per minute of `r`'s measurement
/// interval, by tpmC's rule (report/summary.hpp), with its interval (see above).
[[nodiscard]] estimate throughput(const run::run_result& r, std::optional<txn::kind> k);

/// The `fraction` percentile of `h` in milliseconds (the bucket's upper edge, as every report
/// shows it), with its distribution-free interval, its low end lowered by `lateness_ms`, the
/// client's timer lateness (see above).
[[nodiscard]] estimate percentile_ms(const stats::histogram& h, double fraction,
                                     double lateness_ms = 0);

/// The terminals of `r` in each terminal group (stats::terminal_group_count), as the run
/// assigned them (ten per warehouse in sequence, terminal t in group t mod 32); all 1 when the
/// result's warehouses and terminals do not agree with that (then each group weighs alike).
[[nodiscard]] stats::group_counts::counts terminals_per_group(const run::run_result& r);

/// True when the two intervals share a point: no difference beyond noise.
[[nodiscard]] bool overlap(report::interval a, report::interval b) noexcept;

}  // namespace tpcc::compare
