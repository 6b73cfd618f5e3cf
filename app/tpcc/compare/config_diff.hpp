// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/config_diff.hpp: what differs in how two results were obtained.
//
// What: config_differences() lists each setting or fact of provenance whose value differs
// between result A and result B, in the order a reader should weigh them: first those that
// change what a run measures, the likely cause of a difference in its figures (the database
// kind and target, its server version, warehouses, terminals, isolation, the wait scale, the
// analytic streams, the simulated database, connections, workers, the client host and its
// cores, shoal-tpcc's version and commit), then those that only change its precision or its draws
// (the measurement interval's length, the warm-up, the seed, shards, deliverers, retries).
// Thread-safety: pure function.
#pragma once

#include <string>
#include <vector>

#include "report/json.hpp"

namespace tpcc::compare {

struct config_difference {
  std::string setting;  // "warehouses"
  std::string a, b;     // as shown
  bool likely_cause = false;
};

[[nodiscard]] std::vector<config_difference> config_differences(const report::loaded_result& a,
                                                                const report::loaded_result& b);

}  // namespace tpcc::compare
