// app/tpcc/ui/load_screen.hpp: the loader's dashboard and its plain progress line, as text.
//
// What: render_load() lays out one frame from a loader::progress_snapshot (a plain value the
// loader's counters were copied into): the database, elapsed time and ETA, a progress bar
// (rows written of those expected), warehouses done, rows, rows/s, MiB/s, then the last lines
// of `log`. Same rules as run_screen.hpp: printable ASCII, at most size.columns wide and
// size.rows lines. load_line() is the plain line printed per interval without a terminal.
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
