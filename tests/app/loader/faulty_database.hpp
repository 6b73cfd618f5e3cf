// SPDX-License-Identifier: Apache-2.0
// faulty_database.hpp: a database decorator that breaks a load at a chosen copy() call.
//
// What: wraps a real database; its sessions forward every call to a session borrowed from the
// real one, except the copy() numbered `fail_at` (counted over all sessions, from 1): that one
// either fails with failed "injected failure" (nothing written), or, when given a stop_source,
// requests stop on it and then forwards the call (so the real driver sees the stop, as it would
// when a user presses Ctrl-C between two chunks).
// Lifetime: outlives its leases; close() closes nothing of the real database (its owner does).
// Thread-safety: acquire and release from any thread; the copy counter is atomic.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <mutex>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

#include "driver/database.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace tpcc::testing {

class faulty_database final : public driver::database {
 public:
  faulty_database(driver::database& real, std::uint64_t fail_at, std::stop_source* stop = nullptr)
      : real_(real), fail_at_(fail_at), stop_(stop) {}

  shoal::task<driver::lease> acquire() override;
  [[nodiscard]] std::string describe() const override { return "faulty " + real_.describe(); }
  [[nodiscard]] driver::pool_stats stats() const override { return real_.stats(); }
  shoal::task<void> close() override { co_return; }
  [[nodiscard]] std::uint64_t copies() const noexcept { return copies_.load(); }

 private:
  class faulty_session;
  void release(driver::session& s) noexcept override;

  driver::database& real_;
  std::uint64_t fail_at_;
  std::stop_source* stop_;
  std::atomic<std::uint64_t> copies_{0};
  std::mutex lock_;
  std::list<faulty_session> lent_;  // guarded by lock_
};

class faulty_database::faulty_session final : public driver::session {
 public:
  faulty_session(faulty_database& owner, driver::lease real)
      : owner_(owner), real_(std::move(real)) {}

  shoal::task<driver::outcome> begin() override { return real_->begin(); }
  shoal::task<driver::statement_result> execute(const driver::statement& stmt,
                                                std::vector<driver::value> params) override {
    return real_->execute(stmt, std::move(params));
  }
  shoal::task<std::vector<driver::statement_result>> execute_batch(
      std::span<const driver::call> calls, driver::then after) override {
    return real_->execute_batch(calls, after);
  }
  shoal::task<driver::outcome> copy(const driver::bulk_rows& rows) override {
    if (owner_.copies_.fetch_add(1) + 1 == owner_.fail_at_) {
      if (owner_.stop_ == nullptr) {
        return failed();
      }
      owner_.stop_->request_stop();
    }
    return real_->copy(rows);
  }
  shoal::task<driver::outcome> commit() override { return real_->commit(); }
  shoal::task<driver::outcome> rollback() override { return real_->rollback(); }
  [[nodiscard]] std::uint64_t round_trips() const noexcept override { return real_->round_trips(); }
  [[nodiscard]] bool healthy() const noexcept override { return real_->healthy(); }

 private:
  static shoal::task<driver::outcome> failed() {
    co_return driver::outcome::make(driver::outcome_kind::failed, "", "injected failure");
  }

  faulty_database& owner_;
  driver::lease real_;
};

inline shoal::task<driver::lease> faulty_database::acquire() {
  driver::lease real = co_await real_.acquire();
  if (!real) co_return real;
  const std::chrono::nanoseconds waited = real.waited();
  faulty_session* s = nullptr;
  {
    const std::scoped_lock guard(lock_);
    s = &lent_.emplace_back(*this, std::move(real));
  }
  co_return driver::lease(*this, *s, waited);
}

inline void faulty_database::release(driver::session& s) noexcept {
  const std::scoped_lock guard(lock_);
  lent_.remove_if([&s](const faulty_session& f) { return &f == &s; });
}

}  // namespace tpcc::testing
