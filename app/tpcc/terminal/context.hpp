// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/context.hpp: what every terminal and deliverer of one run shares.
//
// What: the database, the workload's scope (all warehouses, the run's NURand constants), the
// recorder, the deferred-delivery queue, the retry policy, the wait scale and the two stops of
// a run's end:
//   issue_stop  stop issuing: sleeps (keying, think, ramp-up) wake and terminals leave after
//               the transaction they are in;
//   hard_stop   abandon: calls waiting for the database give up (the drain took too long).
// The first unexpected error (a bug, such as a schema the statements do not match) is kept in
// `fatal` and stops the run.
// Lifetime: owned by the run (run/run.hpp), outlives every terminal and deliverer.
// Thread-safety: read-only once terminals start, except the recorder and the queue (both
// thread-safe) and fail() (any thread).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "driver/database.hpp"
#include "shoal/channel.hpp"
#include "stats/error_log.hpp"
#include "stats/pace_windows.hpp"
#include "stats/recorder.hpp"
#include "terminal/delivery_log.hpp"
#include "terminal/pace.hpp"
#include "terminal/routes.hpp"
#include "txn/execute.hpp"
#include "txn/generate.hpp"
#include "txn/inputs.hpp"

namespace tpcc::terminal {

// One deferred Delivery (clause 2.7.2): what was keyed and when it was queued.
struct delivery_request {
  txn::delivery_input input;
  stats::clock::time_point queued_at;
};

struct run_context {
  // `deliverers` queues of `queue_capacity` each.
  run_context(driver::database& database, stats::recorder& rec, std::size_t queue_capacity,
              std::size_t deliverers = 1)
      : db(database), recorder(rec) {
    for (std::size_t i = 0; i < std::max<std::size_t>(1, deliverers); ++i) {
      deliveries.push_back(std::make_unique<shoal::channel<delivery_request>>(queue_capacity));
    }
  }

  // A warehouse's deferred Deliveries always go to the same deliverer's queue, so one
  // warehouse is never delivered by two deliverers at once: the second would find the first's
  // orders gone and report districts as skipped that had undelivered orders (clause 2.7.4.2).
  [[nodiscard]] shoal::channel<delivery_request>& queue_for(std::int64_t w_id) {
    return *deliveries[static_cast<std::size_t>(w_id - 1) % deliveries.size()];
  }

  driver::database& db;
  stats::recorder& recorder;
  std::vector<std::unique_ptr<shoal::channel<delivery_request>>> deliveries;  // per deliverer
  txn::workload_scope scope{};
  txn::retry_policy retry{};
  delivery_log* delivery_results = nullptr;  // --delivery-log, when asked (clause 2.7.2.3)
  double wait_scale = 1.0;  // keying and think times are multiplied by it; 0: no waits
  rate_pace pace;           // --rate: active when the terminals are paced instead (pace.hpp)
  stats::pace_windows* pace_stats = nullptr;  // where paced terminals report; set when paced
  bool procedures = false;  // --procedures: each transaction one stored-procedure call
  std::stop_source issue_stop;
  std::stop_source hard_stop;
  stats::error_log* errors = nullptr;  // where failures are shown; none: not shown
  // Several endpoints (terminal/routes.hpp); empty: every transaction goes to `db`.
  std::vector<endpoint_route> routes;

  // The database warehouse `w_id`'s transactions go to.
  [[nodiscard]] driver::database& db_for(std::int64_t w_id) const noexcept {
    const endpoint_route* r = route_of(routes, w_id);
    return r != nullptr ? *r->db : db;
  }
  // The recorder of `w_id`'s endpoint, besides `recorder`; nullptr with one endpoint.
  [[nodiscard]] stats::recorder* endpoint_recorder(std::int64_t w_id) const noexcept {
    const endpoint_route* r = route_of(routes, w_id);
    return r != nullptr ? r->recorder : nullptr;
  }

  // Records the first unexpected error and stops the run.
  void fail(std::string what) {
    {
      const std::scoped_lock lock(mutex_);
      if (fatal_.empty()) fatal_ = std::move(what);
    }
    issue_stop.request_stop();
    hard_stop.request_stop();
  }
  [[nodiscard]] std::string fatal() const {
    const std::scoped_lock lock(mutex_);
    return fatal_;
  }

 private:
  mutable std::mutex mutex_;
  std::string fatal_;
};

}  // namespace tpcc::terminal
