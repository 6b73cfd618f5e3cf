// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/load_screen.hpp: the loader's dashboard and its plain progress line, as text.
//
// What: render_load() lays out one frame from a loader::progress_snapshot (a plain value the
// loader's counters were copied into): the database, elapsed time and ETA, a progress bar
// (rows written of those expected), warehouses done, rows, rows/s, MiB/s, then a table of the
// nine tables (rows done / expected, %, MiB/s, ETA: "done" once complete, "-" before it starts),
// then the last lines of `log`. Same rules as run_screen.hpp: printable ASCII, at most
// size.columns wide and size.rows lines. load_line() is the plain line printed per interval
// without a terminal: the totals, then "| loading" and each table being loaded (%, MiB/s, ETA),
// then "| done" and the tables done, e.g.
//   load: 0/1 warehouse, 191234 rows (27%), 95617 rows/s, 12.3 MiB/s, ETA 5 s | loading
//   customer 60% 11.9 MiB/s ETA 1 s | done warehouse district item
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "loader/progress.hpp"
#include "ui/text.hpp"

namespace tpcc::ui {

struct load_screen {
  loader::progress_snapshot progress;
  std::string target;  // the database as the user should see it (password redacted)
};

[[nodiscard]] std::vector<std::string> render_load(const load_screen& s, screen_size size,
                                                   const std::vector<std::string>& log);
[[nodiscard]] std::string load_line(const loader::progress_snapshot& s);
// Rows written of those expected (0..1); warehouses done when no rows are expected.
[[nodiscard]] double load_fraction(const loader::progress_snapshot& s);

}  // namespace tpcc::ui
