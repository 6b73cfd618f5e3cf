// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/sim_session.hpp: a simulated session: answers after a latency, no server.
//
// What: a driver session (session.hpp) whose every round trip is a shoal timer of the
// configured latency (plus slow='s for its transaction's type: sim.hpp) on the caller's
// executor (no thread sleeps, nothing blocks), followed by
// the simulated answers (answers.hpp). Round trips are counted as PostgreSQL pipelines them:
// begin() is sent with the first statements (no round trip of its own); execute() is one;
// execute_batch() is one for all its calls and its commit; commit() and rollback() are one
// each. copy() is refused (the simulated database is never loaded). With a server (capacity=N:
// server_clock.hpp), a transaction's end (commit(), rollback(), a batch ending in its commit)
// also waits for its slot on that shared server.
//
// Cancellation (the chain's stop token): a call not started returns failed "cancelled" at
// once; a call waiting out its latency wakes promptly and returns failed "cancelled". The
// session stays healthy: there is no server whose state could be unknown.
// Resumes on: the executor it was awaited on. Thread-safety: one coroutine at a time, as every
// session; round_trips() and healthy() from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "driver/session.hpp"
#include "driver/sim/answers.hpp"
#include "driver/sim/server_clock.hpp"
#include "driver/sim/sim.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver::sim {

class sim_session final : public session {
 public:
  // `slow`: slow='s extra latency per type; `server`: the database's shared server
  // (capacity=N), or null (unlimited).
  sim_session(std::chrono::nanoseconds latency, world w, std::uint64_t seed, slow_table slow = {},
              std::shared_ptr<server_clock> server = nullptr) noexcept
      : latency_(latency), slow_(slow), world_(w), draws_(seed), server_(std::move(server)) {}

  shoal::task<outcome> begin() override;
  shoal::task<statement_result> execute(const statement& stmt, std::vector<value> params) override;
  shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                           then after) override;
  shoal::task<outcome> copy(const bulk_rows& rows) override;
  shoal::task<outcome> commit() override;
  shoal::task<outcome> rollback() override;

  [[nodiscard]] std::uint64_t round_trips() const noexcept override;
  [[nodiscard]] bool healthy() const noexcept override { return true; }

 private:
  // Waits out one round trip's latency (plus the slow= latency of the transaction's type,
  // known from `stmt`, else from the statement before it since begin(); and, ending a
  // transaction, its slot on the server): ok, or failed "cancelled".
  shoal::task<outcome> round_trip(const statement* stmt = nullptr, bool ends_transaction = false);

  std::chrono::nanoseconds latency_;
  slow_table slow_;
  std::size_t type_ = slowed_types.size();  // slowed_index of the transaction so far
  world world_;
  draws draws_;
  std::shared_ptr<server_clock> server_;
  std::atomic<std::uint64_t> round_trips_{0};
};

}  // namespace tpcc::driver::sim
