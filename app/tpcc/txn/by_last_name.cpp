// SPDX-License-Identifier: Apache-2.0
// Choosing a customer by last name (by_last_name.hpp).
#include "txn/by_last_name.hpp"

#include "txn/common.hpp"

namespace tpcc::txn {
namespace {

const driver::statement customers_by_name{
    "tpcc_customers_by_name",
    "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 "
    "ORDER BY c_first"};

}  // namespace

driver::call customers_by_name_call(std::int64_t w_id, std::int64_t d_id,
                                    const std::string& c_last) {
  return make_call(customers_by_name, params(w_id, d_id, c_last));
}

std::optional<std::int64_t> middle_customer(const driver::statement_result& r) {
  if (r.rows.empty()) return std::nullopt;
  const std::size_t position = (r.rows.size() + 1) / 2;  // ceil(n/2), 1-based
  return r.rows[position - 1].int_at(0);
}

driver::outcome choose_by_name(const driver::statement_result& r, const std::string& c_last,
                               std::int64_t& c_id) {
  const std::optional<std::int64_t> chosen = middle_customer(r);
  if (!chosen) {
    return driver::outcome::make(driver::outcome_kind::failed, "", "no customer named " + c_last);
  }
  c_id = *chosen;
  return driver::outcome::success();
}

driver::then commit_unless_by_name(const customer_choice& customer) noexcept {
  return customer.by_last_name ? driver::then::nothing : driver::then::commit;
}

}  // namespace tpcc::txn
