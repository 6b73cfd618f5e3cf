// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/error_log.hpp: every distinct failure shown once, the rest counted.
//
// What: terminals and deliverers call record() for each transaction that failed (not for the
// completed ones, nor for those the run's own shutdown abandoned). The first occurrence of each
// distinct error, keyed by (transaction type, SQLSTATE, statement family, message: a statement
// prepared per district counts once, driver::family), is written to the
// sink at once as one line naming all four. Later occurrences are only counted: at most once per
// `period`, one line says how many errors came since the previous such line, by type and
// SQLSTATE (or, without one, what the driver saw: "connection lost"); flush() writes the last of
// those lines (call it when the run ends). After `max_distinct` distinct errors, new ones are
// counted without their first line (a message carrying values, such as a key, would otherwise flood
// the output).
//
// list() gives every distinct error as the results carry it (error_list: by type, SQLSTATE and
// statement, the first message, the count, the first and last time), the errors past
// `max_distinct` counted apart.
//
// The sink is where lines go (the run writes them to stderr, which the dashboard shows in its
// log pane); it is called under the log's lock, so it must be quick and must not call back.
// Thread-safety: record() and flush() from any thread at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "driver/outcome.hpp"
#include "stats/error_list.hpp"
#include "txn/kind.hpp"

namespace tpcc::stats {

class error_log {
 public:
  using sink = std::function<void(const std::string& line)>;
  using clock = std::chrono::steady_clock;

  explicit error_log(sink out, std::chrono::nanoseconds period = std::chrono::seconds(10),
                     std::size_t max_distinct = max_listed_errors);

  // `now`: when it happened (tests pass their own times).
  void record(txn::kind k, const driver::outcome& o, clock::time_point now = clock::now());
  // Writes the count of errors not yet summarised, if any.
  void flush();
  // Distinct errors seen so far.
  [[nodiscard]] std::size_t distinct() const;
  // Every distinct error so far, one entry per (type, SQLSTATE, statement) with the first
  // message; times on the wall clock, `steady_origin` being `wall_origin`.
  [[nodiscard]] error_list list(clock::time_point steady_origin,
                                std::chrono::system_clock::time_point wall_origin) const;

 private:
  // (type, SQLSTATE, statement, message)
  using key = std::tuple<txn::kind, std::string, std::string, std::string>;

  void summarise(clock::time_point now);

  sink out_;
  const std::chrono::nanoseconds period_;
  const std::size_t max_distinct_;
  mutable std::mutex mutex_;
  struct seen {
    std::uint64_t count = 0;
    clock::time_point first, last;
    std::string outcome;
  };
  std::map<key, seen> seen_;    // guarded by mutex_
  std::uint64_t unlisted_ = 0;  // errors of kinds past max_distinct_, guarded by mutex_
  std::map<std::pair<txn::kind, std::string>, std::uint64_t> new_;  // since the last summary
  std::uint64_t unsummarised_ = 0;                                  // repeats since then
  clock::time_point last_summary_;
};

// "New-Order: SQLSTATE 23514 in stock_update: new row violates ..." (no leading program name).
[[nodiscard]] std::string describe_error(txn::kind k, const driver::outcome& o);

}  // namespace tpcc::stats
