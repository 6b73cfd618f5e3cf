// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/pool/session_pool.hpp: a fixed-size pool of sessions, shared by the drivers.
//
// What: a `database` (database.hpp) whose sessions come from a factory coroutine the driver
// supplies (PostgreSQL: connect; SQLite: open a connection on its thread). The pool holds
// `size` sessions. Terminals borrow one per transaction with `co_await pool.acquire()`:
//   - waiting is fair: strictly first come, first served (a session given back goes straight
//     to the oldest waiter; a newcomer never overtakes a waiter);
//   - waiting is cancellable: the chain's stop token takes the waiter out of the queue at once;
//   - the time spent queued is measured and returned in the lease (lease::waited()).
// A session given back (or found idle) with healthy() == false is closed and replaced in the
// background until the factory succeeds or the pool closes. Replacements are paced pool-wide
// (reconnect_pacing.hpp): once an attempt fails, one attempt at a time, spaced by an exponential
// back-off with jitter (min_backoff doubling up to max_backoff), so a database going away does
// not cause a storm of connects. The thread giving the session back never blocks and never waits
// for the replacement. While no session at all is open and the last attempt failed, acquire()
// fails fast with connection_lost and the factory's reason. A session whose transaction failed
// because the database lost a node (outcome node_lost) is healthy and stays.
//
// Lifecycle: `co_await session_pool::open(options)` runs the factory once, on the caller's
// executor, and reports its failure (so a wrong host or password is reported at open); the
// other size-1 sessions are opened in the background. Before destroying the pool,
// `co_await close()`: it fails new and queued acquires, stops pending replacements, waits for
// every lease to come back, then destroys the sessions.
//
// Thread-safety: acquire(), release (through a lease), stats() and describe() from any thread
// of the pool's thread_pool, concurrently. Background work (replacements, the initial fill) runs
// as detached tasks on `options.background` (default: the thread_pool of the caller of open()).
// Memory ordering: what a lease holder did with a session happens-before the next borrower
// receives it (the hand-over goes through the pool's mutex).
//
// Awaiting open(): Result: the pool, or the factory's outcome when the first session could not
// be opened. Errors: std::logic_error when there is no thread_pool to run background work on.
// Resumes on: the executor it was awaited on. Awaiting acquire(): see database.hpp.
// Example:
//   auto opened = co_await session_pool::open({.size = 16, .description = redacted,
//                                               .factory = [] { return connect(...); }});
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include "driver/database.hpp"
#include "driver/open.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace shoal {
class thread_pool;
}  // namespace shoal

namespace tpcc::driver::pool {

// What a factory produces: a connected session, or why not.
using factory_result = std::variant<std::unique_ptr<session>, outcome>;
using session_factory = std::function<shoal::task<factory_result>()>;

struct session_pool_options {
  std::size_t size = 16;    // sessions held (at least 1)
  std::string description;  // what describe() says: the target, password already redacted
  session_factory factory;  // opens one session; called again for every replacement
  std::chrono::milliseconds min_backoff{50};
  std::chrono::milliseconds max_backoff{5000};
  shoal::thread_pool* background = nullptr;  // null: the thread_pool running open()
};

class session_pool final : public database {
 public:
  // Opens the first session; the rest follow in the background. See the header comment.
  static shoal::task<open_result> open(session_pool_options options);

  session_pool(const session_pool&) = delete;
  session_pool& operator=(const session_pool&) = delete;
  ~session_pool() override;

  shoal::task<lease> acquire() override;
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] pool_stats stats() const override;
  shoal::task<void> close() override;

  struct state;  // the shared, mutex-guarded part (session_pool.cpp)

 protected:
  void release(session& s) noexcept override;

 private:
  explicit session_pool(std::shared_ptr<state> shared) noexcept;

  std::shared_ptr<state> state_;
};

}  // namespace tpcc::driver::pool
