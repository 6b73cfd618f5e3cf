// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/retry_policy.hpp: how often and how patiently a transaction refused for
// concurrency is retried (txn/execute.hpp applies it; run results record it).
// Thread-safety: a plain value.
#pragma once

#include <chrono>

namespace tpcc::txn {

struct retry_policy {
  int max_attempts = 10;
  std::chrono::milliseconds first_backoff{5};
  std::chrono::milliseconds max_backoff{1000};
};

}  // namespace tpcc::txn
