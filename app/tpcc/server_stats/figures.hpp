// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/figures.hpp: the database's own figures over a run, as plain data.
//
// What: the figures a database reports about itself (PostgreSQL's pg_stat_* views, MySQL's and
// MariaDB's SHOW GLOBAL STATUS), read at each cut of the run's interval series on a connection of
// their own (collector.hpp). A figure is a counter (what it grew by over an interval) or a gauge
// (its value when the interval ended). `series` has one entry per reading, labelled with the
// seconds since the terminals started and the run's phase, so it lines up with the client's
// series; `window` covers the measurement interval (counters summed, gauges averaged over its
// readings). A value is NaN when its part was refused (no privilege, a missing view: said once
// in `notes`). `source` is empty when nothing was collected (SQLite, the simulated database, or
// a merged result): `not_collected` says why. Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tpcc::server_stats {

enum class measure : std::uint8_t { counter, gauge };

struct figure_info {
  std::string key;  // as the JSON, CSV and metrics name it: "xact_commit", "com_commit"
  measure kind = measure::counter;
  bool plotted = false;  // drawn as a rate per second in the HTML report
};

struct server_interval {
  double start_seconds = 0, end_seconds = 0;  // since the terminals started
  std::string phase;                          // the phase it starts in: "warmup", "measuring"...
  std::vector<double> values;                 // one per figure (figure order)
  double sample_ms = 0;                       // what reading it cost (one round of queries)
};

// A statement of pg_stat_statements over the measurement window.
struct top_statement {
  std::string query;
  double calls = 0, total_ms = 0, rows = 0;
};

// What reading the figures cost, over every reading of the run.
struct sample_cost {
  std::uint64_t samples = 0;
  double mean_ms = 0, max_ms = 0;
};

struct server_figures {
  std::string source;         // "postgresql", "mysql"; empty: not collected
  std::string not_collected;  // why, when source is empty
  std::vector<figure_info> figures;
  std::vector<server_interval> series;
  double window_seconds = 0;
  std::vector<double> window;  // one per figure; empty when no reading fell in the window
  std::vector<top_statement> top_statements;  // by total time, at most max_top_statements
  std::vector<std::string> notes;             // refusals and the like, each once
  sample_cost cost;

  [[nodiscard]] bool collected() const noexcept { return !source.empty(); }
};

inline constexpr std::size_t max_top_statements = 10;
inline constexpr const char* not_collected_here = "not collected for this database";

}  // namespace tpcc::server_stats
