// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/load_screen.cpp: the loader's dashboard laid out as text (see load_screen.hpp).
#include "ui/load_screen.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "ui/run_screen.hpp"

namespace tpcc::ui {
namespace {

std::string count(std::int64_t v) { return short_number(static_cast<double>(v)); }

std::string eta(const loader::progress_snapshot& s) {
  return s.eta_seconds >= 0 ? clock_time(s.eta_seconds) : std::string("-");
}

// A table's rows written of those expected, in percent (0..100).
double table_percent(const loader::table_progress& t) {
  if (t.rows_expected <= 0) return t.state == loader::table_state::done ? 100 : 0;
  return std::clamp(static_cast<double>(t.rows) / static_cast<double>(t.rows_expected), 0.0, 1.0) *
         100;
}

std::string table_eta(const loader::table_progress& t, bool clock) {
  if (t.state == loader::table_state::done) return "done";
  if (t.eta_seconds < 0) return "-";
  return clock ? clock_time(t.eta_seconds) : fixed(t.eta_seconds, 0) + " s";
}

// One row of the tables' table, or its header: the columns padded alike.
std::string table_columns(const std::string& name, const std::string& rows,
                          const std::string& expected, const std::string& percent,
                          const std::string& mib, const std::string& eta) {
  return pad_right(name, 11) + pad_left(rows, 9) + " / " + pad_right(expected, 8) +
         pad_left(percent, 5) + pad_left(mib, 8) + pad_left(eta, 9);
}

std::string table_row(const loader::table_progress& t) {
  const bool started = t.state != loader::table_state::waiting;
  return table_columns(std::string(t.table), count(t.rows), count(t.rows_expected),
                       fixed(table_percent(t), 0) + "%",
                       started ? fixed(t.mib_per_second, 1) : std::string("-"), table_eta(t, true));
}

void add_tables(std::vector<std::string>& lines, const loader::progress_snapshot& p) {
  lines.emplace_back();
  lines.push_back(table_columns("table", "rows done", "expected", "%", "MiB/s", "ETA"));
  for (const loader::table_progress& t : p.tables) lines.push_back(table_row(t));
}

// "customer 52% 1.9 MiB/s ETA 12 s": a loading table in the plain line.
std::string loading_part(const loader::table_progress& t) {
  return std::string(t.table) + " " + fixed(table_percent(t), 0) + "% " +
         fixed(t.mib_per_second, 1) + " MiB/s ETA " + table_eta(t, false);
}

// " | loading customer 52% ..., history 3% ... | done warehouse district", or "" when no table
// has started.
std::string tables_part(const loader::progress_snapshot& s) {
  std::string loading, done;
  for (const loader::table_progress& t : s.tables) {
    if (t.state == loader::table_state::loading) {
      loading.append(loading.empty() ? " | loading " : ", ").append(loading_part(t));
    } else if (t.state == loader::table_state::done) {
      done.append(done.empty() ? " | done " : " ").append(t.table);
    }
  }
  return loading + done;
}

}  // namespace

double load_fraction(const loader::progress_snapshot& s) {
  if (s.rows_expected > 0) {
    return std::clamp(static_cast<double>(s.rows) / static_cast<double>(s.rows_expected), 0.0, 1.0);
  }
  if (s.warehouses_total <= 0) return 0;
  return static_cast<double>(s.warehouses_done) / static_cast<double>(s.warehouses_total);
}

std::vector<std::string> render_load(const load_screen& s, screen_size size,
                                     const std::vector<std::string>& log) {
  const loader::progress_snapshot& p = s.progress;
  const double fraction = load_fraction(p);
  std::vector<std::string> lines;
  lines.push_back(printable("shoal-tpcc load  " + s.target));
  lines.push_back("LOADING  elapsed " + clock_time(p.elapsed_seconds) + "  ETA " + eta(p));
  const std::size_t width = std::clamp<std::size_t>(size.columns, 20, 200) - 5;
  lines.push_back(progress_bar(fraction, width) + pad_left(fixed(fraction * 100, 0), 4) + "%");
  lines.push_back("warehouses " + std::to_string(p.warehouses_done) + "/" +
                  std::to_string(p.warehouses_total) + " done   items " +
                  (p.items_done ? "done" : "loading"));
  lines.push_back("rows " + count(p.rows) + " of " + count(p.rows_expected) + "   rows/s " +
                  short_number(p.rows_per_second) + "   MiB/s " + fixed(p.mib_per_second, 1));
  add_tables(lines, p);
  add_log_pane(lines, size, log);
  return lines;
}

std::string load_line(const loader::progress_snapshot& s) {
  std::string line =
      "load: " + std::to_string(s.warehouses_done) + "/" + std::to_string(s.warehouses_total) +
      (s.warehouses_total == 1 ? " warehouse, " : " warehouses, ") + std::to_string(s.rows) +
      " rows (" + fixed(load_fraction(s) * 100, 0) + "%), " + fixed(s.rows_per_second, 0) +
      " rows/s, " + fixed(s.mib_per_second, 1) + " MiB/s";
  if (s.eta_seconds >= 0) line += ", ETA " + fixed(s.eta_seconds, 0) + " s";
  line += tables_part(s);
  return line;
}

}  // namespace tpcc::ui
