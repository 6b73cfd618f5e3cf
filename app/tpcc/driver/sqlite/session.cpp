// SPDX-License-Identifier: Apache-2.0
// A driver session on one SQLite connection and its thread (session.hpp).
#include "driver/sqlite/session.hpp"

#include <exception>
#include <stop_token>
#include <utility>

#include "shoal/foreign_completion.hpp"
#include "shoal/stop.hpp"

namespace tpcc::driver::sqlite {
namespace {

outcome cancelled() { return outcome::make(outcome_kind::failed, "", "cancelled"); }

statement_result result_of(const outcome& o) { return {.status = o, .rows = {}, .affected = 0}; }

}  // namespace

shoal::task<connect_result> sqlite_session::open(std::string path, settings tuning) {
  std::unique_ptr<sqlite_session> s(new sqlite_session());
  open_connection_result opened = co_await shoal::foreign_completion<open_connection_result>(
      [&](shoal::completer<open_connection_result> done) {
        s->thread_->submit([&path, &tuning, done] {
          try {
            done.set_value(connection::open(path, tuning));
          } catch (...) {
            done.set_exception(std::current_exception());
          }
        });
      });
  if (auto* failure = std::get_if<outcome>(&opened)) co_return std::move(*failure);
  s->connection_ = std::move(std::get<std::unique_ptr<connection>>(opened));
  co_return std::unique_ptr<session>(std::move(s));
}

sqlite_session::~sqlite_session() {
  if (connection_ != nullptr) thread_->submit([this] { connection_.reset(); });
  thread_.reset();  // runs the close, then joins
}

// The coroutine checks its stop token, arms the connection's interrupt flag, links a stop
// callback that interrupts the connection, and hands the job over. The callback is unlinked
// (waiting for a running one) before the coroutine returns, so no interrupt outlives the call.
template <class Result, class Work, class Fail>
shoal::task<Result> sqlite_session::on_thread(Work work, Fail fail, bool cancellable) {
  if (connection_ == nullptr) co_return fail(outcome::make(outcome_kind::failed, "", "closed"));
  const std::stop_token token = cancellable ? shoal::current_stop_token() : std::stop_token{};
  if (token.stop_requested()) co_return fail(cancelled());
  connection* c = connection_.get();
  c->arm();
  const std::stop_callback on_stop(token, [c]() noexcept { c->interrupt(); });
  round_trips_.fetch_add(1, std::memory_order_relaxed);
  co_return co_await shoal::foreign_completion<Result>([&](shoal::completer<Result> done) {
    thread_->submit([this, c, &work, done] {
      try {
        Result r = work(*c);
        healthy_.store(c->usable(), std::memory_order_relaxed);
        done.set_value(std::move(r));
      } catch (...) {
        done.set_exception(std::current_exception());
      }
    });
  });
}

shoal::task<outcome> sqlite_session::begin() {
  return on_thread<outcome>([](connection& c) { return c.begin(); },
                            [](const outcome& o) { return o; }, true);
}

shoal::task<statement_result> sqlite_session::execute(const statement& stmt,
                                                      std::vector<value> params) {
  co_return co_await on_thread<statement_result>([&](connection& c) { return c.run(stmt, params); },
                                                 result_of, true);
}

shoal::task<std::vector<statement_result>> sqlite_session::execute_batch(
    std::span<const call> calls, then after) {
  const std::size_t results = calls.size() + (after == then::commit ? 1 : 0);
  return on_thread<std::vector<statement_result>>(
      [calls, after](connection& c) { return c.run_batch(calls, after); },
      [results](const outcome& o) { return std::vector<statement_result>(results, result_of(o)); },
      true);
}

shoal::task<outcome> sqlite_session::copy(const bulk_rows& rows) {
  return on_thread<outcome>([&rows](connection& c) { return c.copy(rows); },
                            [](const outcome& o) { return o; }, true);
}

shoal::task<outcome> sqlite_session::commit() {
  return on_thread<outcome>([](connection& c) { return c.commit(); },
                            [](const outcome& o) { return o; }, true);
}

shoal::task<outcome> sqlite_session::rollback() {
  return on_thread<outcome>([](connection& c) { return c.rollback(); },
                            [](const outcome& o) { return o; }, false);
}

std::uint64_t sqlite_session::round_trips() const noexcept {
  return round_trips_.load(std::memory_order_relaxed);
}

bool sqlite_session::healthy() const noexcept { return healthy_.load(std::memory_order_relaxed); }

}  // namespace tpcc::driver::sqlite
