// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/sim_database.hpp: the simulated database: a labelled session pool.
//
// What: wraps the generic session pool (pool/session_pool.hpp) of simulated sessions, so
// borrowing, fairness and pool-wait measurement are the real ones, and labels it:
// simulated() is true and describe() says SIMULATED. Leases come from the inner pool and go
// back to it.
// Lifecycle: as every database: co_await close() before destruction.
// Thread-safety: as the session pool: every member from any thread of the thread_pool.
// Awaiting acquire() and close(): see database.hpp.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "driver/database.hpp"

namespace tpcc::driver::sim {

class sim_database final : public database {
 public:
  sim_database(std::unique_ptr<database> pool, std::string description) noexcept
      : pool_(std::move(pool)), description_(std::move(description)) {}

  shoal::task<lease> acquire() override { return pool_->acquire(); }
  [[nodiscard]] std::string describe() const override { return description_; }
  [[nodiscard]] pool_stats stats() const override { return pool_->stats(); }
  shoal::task<void> close() override { return pool_->close(); }
  [[nodiscard]] bool simulated() const noexcept override { return true; }

 protected:
  // Never called: the inner pool lends the sessions, so leases give them back to it.
  void release(session& s) noexcept override { static_cast<void>(s); }

 private:
  std::unique_ptr<database> pool_;
  std::string description_;
};

}  // namespace tpcc::driver::sim
