// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hard_failures.hpp: the transactions of a run that failed with a non-retryable
// error, which make the exit status 3 (commands/finish_run.cpp) unless --tolerate-errors.
//
// What: over every phase of the run (warm-up and drain included), the transactions whose last
// attempt failed with an error that is not retried (stats::txn_outcome::failed): each type's,
// from the run's series, and the deferred Deliveries', from run_result::deferred_deliveries (a
// Delivery's terminal part only queues it: the deliverer's failure is the Delivery's).
// Failures after exhausted retries, lost connections and abandoned transactions are not hard
// failures: the verdict judges them (report/verdict.hpp), and an endpoint's losses its outage
// (report/endpoint_outage.hpp).
// Thread-safety: a pure function.
#pragma once

#include <cstdint>

#include "run_result/result.hpp"

namespace tpcc::report {

/// The run's hard failures (see above). A result read back from a file has no
/// deferred_deliveries (they are not written): its series' failures only.
[[nodiscard]] std::uint64_t hard_failures(const run::run_result& r);

}  // namespace tpcc::report
