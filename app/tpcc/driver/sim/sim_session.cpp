// SPDX-License-Identifier: Apache-2.0
// A simulated session (sim_session.hpp).
#include "driver/sim/sim_session.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"

namespace tpcc::driver::sim {
namespace {

outcome cancelled() { return outcome::make(outcome_kind::failed, "", "cancelled"); }

statement_result failed_result(const outcome& why) {
  statement_result r;
  r.status = why;
  return r;
}

call one_call(const statement& stmt, std::vector<value> params) {
  call c;
  c.stmt = &stmt;
  c.params = std::move(params);
  return c;
}

}  // namespace

shoal::task<outcome> sim_session::round_trip(const statement* stmt, bool ends_transaction) {
  if (shoal::current_stop_token().stop_requested()) co_return cancelled();
  round_trips_.fetch_add(1, std::memory_order_relaxed);  // read by round_trips(): a counter only
  const std::size_t named = stmt != nullptr ? slowed_index(stmt->name) : slow_.size();
  if (named < slow_.size()) type_ = named;
  const auto extra = type_ < slow_.size() ? slow_[type_] : std::chrono::nanoseconds{0};
  const auto now = std::chrono::steady_clock::now();
  auto answered = now + latency_ + extra;
  if (ends_transaction && server_) answered = std::max(answered, server_->take(now));
  const bool slept = co_await shoal::sleep_until(answered);
  if (!slept) co_return cancelled();
  co_return outcome::success();
}

shoal::task<outcome> sim_session::begin() {
  type_ = slowed_types.size();
  if (shoal::current_stop_token().stop_requested()) co_return cancelled();
  co_return outcome::success();  // sent with the first statements, as PostgreSQL pipelines it
}

shoal::task<statement_result> sim_session::execute(const statement& stmt,
                                                   std::vector<value> params) {
  const call c = one_call(stmt, std::move(params));
  const outcome trip = co_await round_trip(&stmt);
  if (!trip.ok()) co_return failed_result(trip);
  co_return answer(c, world_, draws_);
}

shoal::task<std::vector<statement_result>> sim_session::execute_batch(std::span<const call> calls,
                                                                      then after) {
  const outcome trip =
      co_await round_trip(calls.empty() ? nullptr : calls.front().stmt, after == then::commit);
  std::vector<statement_result> results;
  results.reserve(calls.size() + 1);
  outcome failure = trip;
  for (const call& c : calls) {
    results.push_back(failure.ok() ? answer(c, world_, draws_) : failed_result(failure));
    if (failure.ok() && !results.back().ok()) failure = results.back().status;
  }
  if (after == then::commit) results.push_back(failed_result(failure));
  co_return results;
}

shoal::task<outcome> sim_session::copy(const bulk_rows& rows) {
  static_cast<void>(rows);
  co_return outcome::make(outcome_kind::failed, "",
                          "the simulated database (--db sim:) cannot be loaded");
}

shoal::task<outcome> sim_session::commit() {
  const outcome trip = co_await round_trip(nullptr, true);
  co_return trip;
}

shoal::task<outcome> sim_session::rollback() {
  const outcome trip = co_await round_trip(nullptr, true);
  co_return trip;
}

std::uint64_t sim_session::round_trips() const noexcept {
  return round_trips_.load(std::memory_order_relaxed);
}

}  // namespace tpcc::driver::sim
