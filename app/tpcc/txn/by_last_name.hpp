// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/by_last_name.hpp: choosing a customer by last name (clauses 2.5.2.2, 2.6.2.2).
//
// What: Payment and Order-Status, when the terminal keys a last name, select every customer of
// the district with that name sorted by C_FIRST ascending and take the one at position
// ceil(n/2) (1-based). `customers_by_name_call` builds the query; `middle_customer` picks the
// C_ID from its result. Thread-safety: plain functions; the statement is immutable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/statement.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

// SELECT c_id ... ORDER BY c_first for (w_id, d_id, c_last).
[[nodiscard]] driver::call customers_by_name_call(std::int64_t w_id, std::int64_t d_id,
                                                  const std::string& c_last);

// The C_ID at position ceil(n/2) of the sorted result; nullopt when no customer matched.
[[nodiscard]] std::optional<std::int64_t> middle_customer(const driver::statement_result& r);

// The customer chosen by name from `r` (the rows of customers_by_name_call) into `c_id`;
// failed, naming c_last, when no customer has that name.
[[nodiscard]] driver::outcome choose_by_name(const driver::statement_result& r,
                                             const std::string& c_last, std::int64_t& c_id);

// By number, a transaction's first round trip can commit; by name, a second one does.
[[nodiscard]] driver::then commit_unless_by_name(const customer_choice& customer) noexcept;

}  // namespace tpcc::txn
