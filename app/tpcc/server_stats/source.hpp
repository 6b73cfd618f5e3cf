// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/source.hpp: one database kind's way of reading its own figures.
//
// What: a source names its figures (figures.hpp) and reads them on a session it is given (the
// collector's own, never a terminal's). read() returns each figure's cumulative value (a
// counter's running total, a gauge's value now), NaN for a part the database refused; the first
// refusal of each part is returned once in `refused` and the part is not asked again.
// statements() reads pg_stat_statements' per-statement totals when the source has them (empty
// otherwise). Sources for PostgreSQL (postgres_source.cpp) and MySQL/MariaDB
// (mysql_source.cpp); none for SQLite or the simulated database.
//
// Awaiting read() and statements():
//   Result: the reading. Errors: std::bad_alloc only (database errors are refusals or NaN).
//   Cancellation: the chain's stop token, as the session's calls.
//   Resumes on: the executor it was awaited on. Thread-safety: one coroutine at a time.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "driver/session.hpp"
#include "driver/target.hpp"
#include "server_stats/figures.hpp"
#include "shoal/task.hpp"

namespace tpcc::server_stats {

struct reading {
  std::vector<double> values;        // cumulative, one per figure; NaN: refused or unknown
  std::vector<std::string> refused;  // parts refused for the first time (one line each)
};

// pg_stat_statements' cumulative totals, keyed by the statement's identity.
struct statement_totals {
  std::string query;
  double calls = 0, total_ms = 0, rows = 0;
};
using statement_map = std::map<std::string, statement_totals>;

struct statements_reading {
  statement_map totals;
  std::vector<std::string> refused;  // as reading::refused
};

class source {
 public:
  source() = default;
  source(const source&) = delete;
  source& operator=(const source&) = delete;
  virtual ~source() = default;

  [[nodiscard]] virtual std::string name() const = 0;
  [[nodiscard]] virtual const std::vector<figure_info>& figures() const = 0;
  [[nodiscard]] virtual shoal::task<reading> read(driver::session& s) = 0;
  // Per-statement totals now; empty when the source has none (or they were refused).
  [[nodiscard]] virtual shoal::task<statements_reading> statements(driver::session& s);
  // The query naming the running server (one row, one text column), the same text on every
  // connection to it and a different one on any other server; nullptr when the source has none.
  [[nodiscard]] virtual const driver::statement* identity_query() const { return nullptr; }
};

// The source for `kind`'s databases; nullptr for SQLite, the simulation and unknown targets.
[[nodiscard]] std::unique_ptr<source> source_for(driver::engine kind);

// The statement's outcome as a refusal line: "<part>: <message> (SQLSTATE x)".
[[nodiscard]] std::string refusal(const std::string& part, const driver::outcome& why);
// A column as a number: an integer, a double, or text holding one; NaN otherwise (NULL too).
[[nodiscard]] double number_of(const driver::value& v);

}  // namespace tpcc::server_stats
