// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the transaction bodies (common.hpp).
#include "txn/common.hpp"

#include <cmath>
#include <ctime>
#include <string>

namespace tpcc::txn {

driver::call make_call(const driver::statement& stmt, std::vector<driver::value> p) {
  return driver::call{.stmt = &stmt, .params = std::move(p)};
}

driver::outcome one_row(const driver::statement_result& r, const char* what) {
  if (!r.ok()) return r.status;
  if (r.rows.size() == 1) return driver::outcome::success();
  return driver::outcome::make(
      driver::outcome_kind::failed, "",
      std::string(what) + ": expected one row, found " + std::to_string(r.rows.size()));
}

shoal::task<driver::outcome> abandon(driver::session& s, driver::outcome why) {
  if (why.kind != driver::outcome_kind::connection_lost) {
    const driver::outcome ignored = co_await s.rollback();
    static_cast<void>(ignored);
  }
  co_return why;
}

std::string timestamp_text(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::string out(19, '\0');
  const std::size_t n = std::strftime(out.data(), out.size() + 1, "%Y-%m-%d %H:%M:%S", &parts);
  out.resize(n);
  return out;
}

std::string now_text() { return timestamp_text(std::chrono::system_clock::now()); }

double round_cents(double amount) noexcept { return std::round(amount * 100.0) / 100.0; }

}  // namespace tpcc::txn
