// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hard_failures.cpp: a run's hard failures (see hard_failures.hpp).
#include "report/hard_failures.hpp"

namespace tpcc::report {

std::uint64_t hard_failures(const run::run_result& r) {
  std::uint64_t n = r.deferred_deliveries[stats::txn_outcome::failed];
  for (const stats::interval_sample& i : r.series) {
    for (const stats::interval_kind& k : i.kinds) n += k.outcomes[stats::txn_outcome::failed];
  }
  return n;
}

}  // namespace tpcc::report
