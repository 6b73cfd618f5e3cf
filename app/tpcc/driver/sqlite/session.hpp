// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sqlite/session.hpp: a driver session on one SQLite connection and its thread.
//
// What: every call is one job on the connection's own thread (job_thread.hpp), awaited with
// shoal::foreign_completion: the coroutine suspends, the thread runs the blocking SQLite calls,
// and the coroutine resumes on its own executor, never on the SQLite thread. One job is one
// "round trip": begin, execute, copy, commit and rollback are one each, and execute_batch is one
// for all its calls and its commit.
//
// Cancellation (the chain's stop token), per session.hpp's contract with one difference: a call
// not started when stop is requested returns failed "cancelled" at once, without a job. A call
// already running is interrupted (sqlite3_interrupt, and a busy wait stops within 5 ms); it
// returns failed "cancelled: ... interrupted" and its transaction is rolled back right there,
// so the connection stays usable: SQLite's state is known, unlike a server's, so it is not
// reported as connection_lost. rollback() is never cancelled: it is the clean-up.
//
// Lifetime: the destructor closes the connection on its own thread and joins it, so it blocks
// for the close (in WAL mode the last connection to a file checkpoints it): the pool destroys
// sessions only when it closes or replaces a broken one. Thread-safety: one coroutine at a time,
// as every session; round_trips() and healthy() from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "driver/session.hpp"
#include "driver/sqlite/connection.hpp"
#include "driver/sqlite/job_thread.hpp"
#include "driver/sqlite/sqlite.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::sqlite {

class sqlite_session final : public session {
 public:
  // Starts the thread and opens the connection on it.
  static shoal::task<connect_result> open(std::string path, settings tuning);
  ~sqlite_session() override;

  shoal::task<outcome> begin() override;
  shoal::task<statement_result> execute(const statement& stmt, std::vector<value> params) override;
  shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                           then after) override;
  shoal::task<outcome> copy(const bulk_rows& rows) override;
  shoal::task<outcome> commit() override;
  shoal::task<outcome> rollback() override;

  [[nodiscard]] std::uint64_t round_trips() const noexcept override;
  [[nodiscard]] bool healthy() const noexcept override;

 private:
  sqlite_session() = default;
  // Runs work(connection&) -> Result as one job; fail(outcome) -> Result when it cannot start.
  template <class Result, class Work, class Fail>
  shoal::task<Result> on_thread(Work work, Fail fail, bool cancellable);

  std::unique_ptr<job_thread> thread_ = std::make_unique<job_thread>();
  std::unique_ptr<connection> connection_;
  std::atomic<std::uint64_t> round_trips_{0};
  std::atomic<bool> healthy_{true};
};

}  // namespace tpcc::driver::sqlite
