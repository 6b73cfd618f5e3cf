// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/collector.hpp: reading the database's own figures beside a run.
//
// What: a collector owns a connection of its own (a database of one session, never a terminal's
// pool) and a source (source.hpp). start() spawns its reading coroutine, which reads a baseline
// at once; then each cut() of the run's interval series (the run's monitor calls it at every
// cut, window edges included) is followed by one reading, so the server's intervals are the
// client's (a reading comes a query's time after its cut; cuts arriving during a slow reading
// are read together, as one longer interval). At the window's edges it also reads
// pg_stat_statements, for the window's top statements. A part the database refuses is said
// once, through `say`, and kept in the notes; the run goes on. stop() reads the cuts still
// pending (the last, partial interval), ends the coroutine and closes the connection; finish()
// then gives the figures (figures.hpp). latest() serves the metrics endpoint meanwhile.
// Lifetime: start(); cut()...; co_await stop(); finish(); then destroy. The pool must outlive it.
// Thread-safety: cut() and latest() from any thread (one mutex); the rest from the run.
//
// Awaiting stop():
//   Result: void. Errors: none. Cancellation: none; a reading still waiting for the server
//   after `stop_bound` is abandoned (its connection closed). Resumes on: a worker of the pool.
//   Thread-safety: once.
// Awaiting open_collector():
//   Result: a collector, or none with the reason (empty for SQLite and the simulated database,
//   which have no figures to read). Resumes on: the executor it was awaited on.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "driver/database.hpp"
#include "driver/target.hpp"
#include "server_stats/figures.hpp"
#include "server_stats/source.hpp"
#include "shoal/async_event.hpp"
#include "shoal/gate.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::server_stats {

// What the metrics endpoint shows: each counter's growth since the baseline, each gauge's last
// value, the last reading's cost.
struct live_figures {
  std::string source;
  std::vector<figure_info> figures;
  std::vector<double> values;
  double last_sample_ms = 0;
  std::uint64_t samples = 0;
};

// One cut of the run's series: the interval ending at `end_seconds` started in phase `ended`;
// the next one starts in `next` (a window edge when one of them is "measuring" and the other
// not).
struct cut_mark {
  double end_seconds = 0;
  std::string ended, next;
};

class collector {
 public:
  static constexpr std::chrono::seconds stop_bound{5};

  collector(std::unique_ptr<driver::database> db, std::unique_ptr<source> src,
            std::function<void(const std::string&)> say);
  collector(const collector&) = delete;
  collector& operator=(const collector&) = delete;
  ~collector();

  void start(shoal::thread_pool& pool);
  void cut(cut_mark mark);
  [[nodiscard]] shoal::task<void> stop();  // once; later calls return at once
  [[nodiscard]] bool stopped() const noexcept { return stopped_; }
  [[nodiscard]] server_figures finish();
  [[nodiscard]] std::optional<live_figures> latest() const;
  // The server it reads, as its database names its target (password redacted).
  [[nodiscard]] const std::string& describe() const noexcept { return name_; }
  // Before start(): the text naming the server it reads (source::identity_query); empty when
  // unknown (no such query, or it failed), which matches no other server.
  // Resumes on: the executor it was awaited on.
  [[nodiscard]] shoal::task<std::string> identify();

  // For the reading coroutine.
  [[nodiscard]] shoal::task<void> read_baseline();
  [[nodiscard]] shoal::task<bool> read_pending();  // false once stopping and nothing is left
  [[nodiscard]] shoal::async_event& woken() noexcept { return wake_; }

 private:
  [[nodiscard]] shoal::task<std::optional<reading>> read_now(double& ms);
  [[nodiscard]] shoal::task<statement_map> read_statements();
  void record(const std::vector<cut_mark>& marks, const reading& r, double ms);
  void note(const std::vector<std::string>& lines);

  std::unique_ptr<driver::database> db_;
  std::unique_ptr<source> source_;
  std::function<void(const std::string&)> say_;
  std::string name_;  // db_->describe(), taken once
  server_figures figures_;
  std::vector<double> baseline_, last_;
  std::optional<statement_map> window_from_, window_to_;
  double last_end_ = 0;
  mutable std::mutex mutex_;  // guards pending_, stopping_, latest_
  std::vector<cut_mark> pending_;
  bool stopping_ = false;
  std::optional<live_figures> latest_;
  shoal::async_event wake_;
  std::stop_source stop_;
  shoal::gate gate_;
  bool started_ = false, stopped_ = false;
};

struct opened_collector {
  std::unique_ptr<collector> made;  // null: none
  std::string why_not;              // empty for a database without figures
};

// A collector for `target` on a connection of its own; `say` prints a line once.
[[nodiscard]] shoal::task<opened_collector> open_collector(
    const driver::target& target, std::chrono::milliseconds connect_timeout,
    std::function<void(const std::string&)> say);

// The window's top statements from pg_stat_statements' totals at its two edges: by the time
// they took inside it, at most max_top_statements, those called in it only.
[[nodiscard]] std::vector<top_statement> top_statements(const statement_map& from,
                                                        const statement_map& to);

}  // namespace tpcc::server_stats
