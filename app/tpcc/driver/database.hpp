// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/database.hpp: a database, its connection pool, and borrowing a session.
//
// What: `open_database` (open.hpp) turns a --db target into a database. Terminals far outnumber
// connections: each borrows a session per transaction with `co_await db.acquire()` and gives it
// back when the lease ends. Waiting for a session is fair (FIFO) and cancellable; the time spent
// waiting is measured and returned in the lease, apart from the time inside the transaction.
// A broken session given back is closed and replaced in the background, with back-off.
//
// Awaiting acquire():
//   Result: a lease; empty (false) with its outcome when no session could be had: cancelled
//           (failed "cancelled"), or the database unreachable (connection_lost, with the reason).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token: a waiter leaves the queue at once.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any number of coroutines on any workers.
// describe() names the target with any password redacted. simulated() is true for the capacity
// mode's simulated database (driver/sim/sim.hpp): its figures measure the client, not a
// database, and every output must say so.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>

#include "driver/isolation.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver {

class database;

// A borrowed session; gives it back when destroyed.
class lease {
 public:
  lease() = default;
  lease(database& owner, session& s, std::chrono::nanoseconds waited) noexcept
      : owner_(&owner), session_(&s), waited_(waited) {}
  explicit lease(outcome why) : status_(std::move(why)) {}
  lease(lease&& other) noexcept
      : owner_(std::exchange(other.owner_, nullptr)),
        session_(std::exchange(other.session_, nullptr)),
        waited_(other.waited_),
        status_(std::move(other.status_)) {}
  lease& operator=(lease&& other) noexcept;
  lease(const lease&) = delete;
  lease& operator=(const lease&) = delete;
  ~lease() { give_back(); }

  [[nodiscard]] explicit operator bool() const noexcept { return session_ != nullptr; }
  [[nodiscard]] session& operator*() const noexcept { return *session_; }
  [[nodiscard]] session* operator->() const noexcept { return session_; }
  // Why the lease is empty (ok when it is not).
  [[nodiscard]] const outcome& status() const noexcept { return status_; }
  // Time spent queued for a session.
  [[nodiscard]] std::chrono::nanoseconds waited() const noexcept { return waited_; }

 private:
  void give_back() noexcept;

  database* owner_ = nullptr;
  session* session_ = nullptr;
  std::chrono::nanoseconds waited_{0};
  outcome status_;
};

struct pool_stats {
  std::size_t size = 0;        // sessions open now
  std::size_t in_use = 0;      // of which borrowed
  std::size_t waiting = 0;     // coroutines queued for one
  std::uint64_t replaced = 0;  // broken sessions replaced since open
};

class database {
 public:
  database() = default;
  database(const database&) = delete;
  database& operator=(const database&) = delete;
  virtual ~database() = default;

  virtual shoal::task<lease> acquire() = 0;
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual pool_stats stats() const = 0;
  [[nodiscard]] virtual bool simulated() const noexcept { return false; }
  // Closes every session; waits for leases to come back first. Call before destruction.
  virtual shoal::task<void> close() = 0;

 protected:
  friend class lease;
  // Takes back a session lent by acquire(). Any thread.
  virtual void release(session& s) noexcept = 0;
};

inline void lease::give_back() noexcept {
  if (session_ != nullptr) owner_->release(*std::exchange(session_, nullptr));
}

inline lease& lease::operator=(lease&& other) noexcept {
  if (this != &other) {
    give_back();
    owner_ = std::exchange(other.owner_, nullptr);
    session_ = std::exchange(other.session_, nullptr);
    waited_ = other.waited_;
    status_ = std::move(other.status_);
  }
  return *this;
}

}  // namespace tpcc::driver
