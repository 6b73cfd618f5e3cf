// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/session.cpp: session's shared helper (session.hpp).
#include "driver/session.hpp"

#include <array>
#include <utility>

namespace tpcc::driver {

shoal::task<statement_result> session::execute_as_batch(const statement& stmt,
                                                        std::vector<value> params) {
  // Assigned, not brace-initialised: g++ 12 mishandles aggregate initialisers in coroutines.
  std::array<call, 1> one;
  one[0].stmt = &stmt;
  one[0].params = std::move(params);
  std::vector<statement_result> results = co_await execute_batch(one, then::nothing);
  co_return std::move(results.front());
}

outcome first_failure(std::span<const statement_result> results) {
  for (const statement_result& r : results) {
    if (!r.ok()) return r.status;
  }
  return outcome::success();
}

}  // namespace tpcc::driver
