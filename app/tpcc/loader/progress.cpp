// SPDX-License-Identifier: Apache-2.0
// How far a load has got, in all and per table (progress.hpp).
#include "loader/progress.hpp"

#include <algorithm>

#include "loader/estimate.hpp"

namespace tpcc::loader {
namespace {

constexpr double mib = 1024.0 * 1024.0;

constexpr std::array<std::string_view, table_count> names{
    "warehouse", "district",   "customer", "history", "orders",
    "new_order", "order_line", "stock",    "item",
};

using clock = load_progress::clock;

// A time as stored: its tick count, never 0 (0 means "none"; a theoretical epoch is nudged).
clock::rep ticks(clock::time_point t) noexcept {
  return std::max<clock::rep>(t.time_since_epoch().count(), 1);
}

double seconds_between(clock::rep from, clock::rep to) noexcept {
  return std::max(0.0, std::chrono::duration<double>(clock::duration(to - from)).count());
}

// Rate and ETA of `p` over `seconds` of its life.
void derive_rates(table_progress& p, double seconds) noexcept {
  if (seconds <= 0 || p.rows == 0) return;
  p.rows_per_second = static_cast<double>(p.rows) / seconds;
  p.mib_per_second = static_cast<double>(p.bytes) / mib / seconds;
  const auto left = static_cast<double>(std::max<std::int64_t>(p.rows_expected - p.rows, 0));
  if (p.state == table_state::loading) p.eta_seconds = left / p.rows_per_second;
}

}  // namespace

const std::array<std::string_view, table_count>& load_tables() noexcept { return names; }

std::size_t table_index(std::string_view table) noexcept {
  const auto* found = std::find(names.begin(), names.end(), table);
  return static_cast<std::size_t>(found - names.begin());
}

std::array<table_progress, table_count> progress_snapshot::waiting_tables() noexcept {
  std::array<table_progress, table_count> out{};
  for (std::size_t t = 0; t < table_count; ++t) out[t].table = names[t];
  return out;
}

// Relaxed stores throughout: each counter stands alone (header). A snapshot taken during start
// may mix old and new counters for one poll.
void load_progress::reset_table(std::size_t t, std::int64_t rows, std::int64_t bytes,
                                std::int64_t parts) {
  table_counters& c = tables_[t];
  c.rows.store(0, std::memory_order_relaxed);
  c.bytes.store(0, std::memory_order_relaxed);
  c.rows_expected.store(rows, std::memory_order_relaxed);
  c.bytes_expected.store(bytes, std::memory_order_relaxed);
  c.parts_expected.store(parts, std::memory_order_relaxed);
  c.parts_finished.store(0, std::memory_order_relaxed);
  c.started.store(0, std::memory_order_relaxed);
  c.finished.store(0, std::memory_order_relaxed);
}

void load_progress::start(std::int64_t warehouses_total, std::int64_t warehouses_done,
                          bool items_done, clock::time_point now) {
  const std::int64_t warehouses_left =
      std::max<std::int64_t>(warehouses_total - warehouses_done, 0);
  for (const table_estimate& e : estimate(warehouses_left)) {
    const std::size_t t = table_index(e.table);
    const bool item = e.table == "item";
    const std::int64_t parts = item ? (items_done ? 0 : 1) : warehouses_left;
    reset_table(t, parts == 0 ? 0 : e.rows, parts == 0 ? 0 : e.bytes, parts);
  }
  warehouses_total_.store(warehouses_total, std::memory_order_relaxed);
  warehouses_done_.store(warehouses_done, std::memory_order_relaxed);
  items_done_.store(items_done, std::memory_order_relaxed);
  started_.store(ticks(now), std::memory_order_relaxed);
}

// The first part to start a table sets its start; later ones leave it.
void load_progress::table_started(std::size_t table, clock::time_point now) noexcept {
  if (table >= table_count) return;
  clock::rep none = 0;
  tables_[table].started.compare_exchange_strong(none, ticks(now), std::memory_order_relaxed);
}

void load_progress::add(std::size_t table, std::int64_t rows, std::int64_t bytes) noexcept {
  if (table >= table_count) return;
  tables_[table].rows.fetch_add(rows, std::memory_order_relaxed);
  tables_[table].bytes.fetch_add(bytes, std::memory_order_relaxed);
}

// The part that finishes a table last records when (the fetch_add decides which one).
void load_progress::table_finished(std::size_t table, clock::time_point now) noexcept {
  if (table >= table_count) return;
  table_counters& c = tables_[table];
  const std::int64_t finished = c.parts_finished.fetch_add(1, std::memory_order_relaxed) + 1;
  if (finished == c.parts_expected.load(std::memory_order_relaxed)) {
    c.finished.store(ticks(now), std::memory_order_relaxed);
  }
}

void load_progress::warehouse_done() noexcept {
  warehouses_done_.fetch_add(1, std::memory_order_relaxed);
}

void load_progress::items_done() noexcept { items_done_.store(true, std::memory_order_relaxed); }

table_progress load_progress::table_snapshot(std::size_t t, clock::rep now) const {
  const table_counters& c = tables_[t];
  table_progress p;
  p.table = names[t];
  p.rows = c.rows.load(std::memory_order_relaxed);
  p.bytes = c.bytes.load(std::memory_order_relaxed);
  p.rows_expected = c.rows_expected.load(std::memory_order_relaxed);
  p.bytes_expected = c.bytes_expected.load(std::memory_order_relaxed);
  const std::int64_t parts = c.parts_expected.load(std::memory_order_relaxed);
  const clock::rep started = c.started.load(std::memory_order_relaxed);
  if (parts <= c.parts_finished.load(std::memory_order_relaxed)) {
    p.state = table_state::done;
    p.eta_seconds = 0;
  } else if (started != 0) {
    p.state = table_state::loading;
  }
  if (started == 0) return p;
  const clock::rep finished = c.finished.load(std::memory_order_relaxed);
  const clock::rep until = p.state == table_state::done && finished != 0 ? finished : now;
  derive_rates(p, seconds_between(started, until));
  return p;
}

progress_snapshot load_progress::snapshot(clock::time_point now) const {
  progress_snapshot s;
  const clock::rep started = started_.load(std::memory_order_relaxed);
  if (started == 0) return s;  // before start: nothing expected, every table waiting
  for (std::size_t t = 0; t < table_count; ++t) {
    s.tables[t] = table_snapshot(t, ticks(now));
    s.rows += s.tables[t].rows;
    s.bytes += s.tables[t].bytes;
    s.rows_expected += s.tables[t].rows_expected;
  }
  s.warehouses_done = warehouses_done_.load(std::memory_order_relaxed);
  s.warehouses_total = warehouses_total_.load(std::memory_order_relaxed);
  s.items_done = items_done_.load(std::memory_order_relaxed);
  s.elapsed_seconds = seconds_between(started, ticks(now));
  if (s.elapsed_seconds <= 0 || s.rows == 0) return s;
  s.rows_per_second = static_cast<double>(s.rows) / s.elapsed_seconds;
  s.mib_per_second = static_cast<double>(s.bytes) / mib / s.elapsed_seconds;
  const auto left = static_cast<double>(std::max<std::int64_t>(s.rows_expected - s.rows, 0));
  s.eta_seconds = left / s.rows_per_second;
  return s;
}

}  // namespace tpcc::loader
