// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/analytic.cpp: CH-benCHmark's analytic streams (see analytic.hpp).
#include "run/analytic.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "ch/citus_joins.hpp"
#include "ch/queries.hpp"
#include "ch/run_query.hpp"
#include "run/run.hpp"
#include "shoal/async_event.hpp"
#include "shoal/gate.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::run {

struct analytic_streams::shared {
  explicit shared(analytic_plan p) : plan(std::move(p)), hard(plan.databases.size()) {
    for (std::size_t i = 0; i < plan.databases.size(); ++i) {
      running.push_back(std::make_unique<shoal::async_event>(true));
    }
  }

  analytic_plan plan;
  std::stop_source ending;             // end(): stop issuing, cancel in flight
  std::vector<std::stop_source> hard;  // per stream: stop the call by its stop token
  shoal::gate streams;
  std::vector<std::unique_ptr<shoal::async_event>> running;  // per stream: set while active
  mutable std::mutex mutex;
  ch_totals totals;                              // guarded by mutex
  ch_progress progress;                          // every phase; guarded by mutex
  std::array<bool, ch::query_count> reported{};  // first error printed; guarded by mutex
  std::size_t hard_stopped = 0;                  // guarded by mutex
};

namespace {

using shared_state = analytic_streams::shared;

// One query's ending, counted under the lock.
void tally_ch_query(shared_state& sh, int number, const ch::query_result& r,
                    std::chrono::nanoseconds took, stats::clock::time_point ended, bool hard) {
  const std::scoped_lock lock(sh.mutex);
  ch_query_totals& q = sh.totals.queries.at(static_cast<std::size_t>(number - 1));
  // Ended after the run's end: cancelled, whatever it says (MySQL's SLEEP() alone returns 1,
  // no error, when killed).
  if (sh.ending.stop_requested()) {
    ++q.cancelled;
    ++sh.progress.cancelled;
    if (hard) ++sh.hard_stopped;
    return;
  }
  if (r.ok()) {
    ++sh.progress.completed;
    sh.progress.latency.record(took);
    if (ended < sh.plan.window_start || ended > sh.plan.window_end) return;
    ++q.completed;
    q.latency.record(took);
    q.last_rows = static_cast<std::int64_t>(r.rows.size());
    return;
  }
  ++q.failed;
  ++sh.progress.failed;
  auto& said = sh.reported.at(static_cast<std::size_t>(number - 1));
  if (said) return;
  said = true;
  std::fprintf(stderr, "shoal-tpcc: CH-benCHmark Q%d failed: %s%s%s\n", number,
               r.status.sqlstate.empty() ? "" : r.status.sqlstate.c_str(),
               r.status.sqlstate.empty() ? "" : " ", r.status.message.c_str());
}

// Whether stream `index`'s queries need a setup statement first (on Citus, its repartition
// joins: ch/citus_joins.hpp), probed once on a lease of its database; none when the probe fails.
shoal::task<const driver::statement*> probe_setup(shared_state& sh, std::size_t index) {
  if (sh.plan.dialect != driver::engine::postgres) co_return nullptr;
  driver::database& db = *sh.plan.databases[index];
  const std::stop_token hard = sh.hard[index].get_token();
  driver::lease l = co_await shoal::with_stop_token(hard, db.acquire());
  if (!l) co_return nullptr;
  co_return co_await shoal::with_stop_token(hard, ch::setup_for(*l, sh.plan.dialect));
}

// Runs query `number` on a session of `db` (`setup` first, when given); a cancel request reaches
// it when the streams end.
shoal::task<void> run_one_query(shared_state& sh, std::size_t index, int number,
                                const driver::statement* setup) {
  driver::database& db = *sh.plan.databases[index];
  std::stop_source& hard = sh.hard[index];
  const auto started = stats::clock::now();
  driver::lease l = co_await shoal::with_stop_token(hard.get_token(), db.acquire());
  ch::query_result r;
  if (!l) {
    r.status = l.status();
  } else {
    driver::session& s = *l;
    const std::stop_callback cancel_on_end(sh.ending.get_token(), [&s, &hard]() noexcept {
      if (!s.cancel()) hard.request_stop();  // no cancel request: its stop token instead
    });
    const driver::statement& stmt =
        sh.plan.only != nullptr ? *sh.plan.only : ch::statement_for(number, sh.plan.dialect);
    r = co_await shoal::with_stop_token(hard.get_token(),
                                        ch::run_statement(s, sh.plan.dialect, stmt, setup));
  }
  const auto ended = stats::clock::now();
  tally_ch_query(sh, number, r, ended - started, ended, hard.stop_requested());
}

// Stream `index`: from query index mod 22 + 1, the 22 in order, until ended (or its passes).
shoal::task<void> run_stream(shared_state& sh, std::size_t index, shoal::gate_token inside) {
  const int first = static_cast<int>(index % ch::query_count) + 1;
  int number = first;
  std::size_t rounds = 0;
  const driver::statement* setup = co_await probe_setup(sh, index);
  while (!sh.ending.stop_requested()) {
    // Paused by set_active: waits here, between queries, until resumed or ended.
    const bool go =
        co_await shoal::with_stop_token(sh.ending.get_token(), sh.running[index]->wait());
    if (!go) break;
    co_await run_one_query(sh, index, number, setup);
    number = number % ch::query_count + 1;
    if (number == first && sh.plan.passes != 0 && ++rounds == sh.plan.passes) break;
  }
  inside.reset();  // leaves the gate
}

}  // namespace

analytic_streams::analytic_streams(shoal::thread_pool& pool, analytic_plan plan)
    : pool_(pool), shared_(std::make_unique<shared>(std::move(plan))) {
  shared_->totals.streams = static_cast<std::int64_t>(shared_->plan.databases.size());
  shared_->totals.active_streams = shared_->totals.streams;
}

analytic_streams::~analytic_streams() {
  assert(shared_->streams.is_closed() || !shared_->totals.ran());
}

void analytic_streams::start() {
  for (std::size_t i = 0; i < shared_->plan.databases.size(); ++i) {
    pool_.spawn(run_stream(*shared_, i, shared_->streams.enter()));
  }
}

void analytic_streams::end() noexcept { shared_->ending.request_stop(); }

shoal::task<void> analytic_streams::stop() {
  end();
  const bool in_time = co_await shoal::with_timeout(shared_->plan.grace, shared_->streams.close());
  if (in_time) co_return;
  for (std::stop_source& s : shared_->hard) s.request_stop();
  const bool emptied = co_await shared_->streams.close();  // every call honours its stop token
  static_cast<void>(emptied);
}

shoal::task<void> analytic_streams::join() {
  const bool emptied = co_await shared_->streams.close();
  static_cast<void>(emptied);
}

void analytic_streams::set_active(std::size_t n) {
  {
    const std::scoped_lock lock(shared_->mutex);
    shared_->totals.active_streams =
        static_cast<std::int64_t>(std::min(n, shared_->running.size()));
  }
  for (std::size_t i = 0; i < shared_->running.size(); ++i) {
    if (i < n) {
      shared_->running[i]->set();
    } else {
      shared_->running[i]->reset();
    }
  }
}

ch_progress analytic_streams::progress() const {
  const std::scoped_lock lock(shared_->mutex);
  return shared_->progress;
}

ch_totals analytic_streams::take() const {
  const std::scoped_lock lock(shared_->mutex);
  return shared_->totals;
}

std::size_t analytic_streams::hard_stopped() const {
  const std::scoped_lock lock(shared_->mutex);
  return shared_->hard_stopped;
}

std::optional<ch_totals> run_control::analytic() const {
  const std::scoped_lock lock(mutex_);
  if (analytic_ == nullptr) return std::nullopt;
  return analytic_->take();
}

void run_control::publish_analytic(const analytic_streams* streams) {
  const std::scoped_lock lock(mutex_);
  analytic_ = streams;
}

}  // namespace tpcc::run
