// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/progress.hpp: how far a load has got, in all and per table, for the command
// line to show.
//
// What: the loader (loader.hpp) counts into a load_progress as it writes: per table of clause 1.3
// the rows and bytes sent and the parts (ITEM, or one warehouse) that finished writing it, plus
// warehouses committed and whether ITEM is committed. The command line polls `snapshot()` (about
// once a second) and renders it; the loader itself never prints. A snapshot is a plain value
// with the totals, rates and an ETA, and the same per table (progress_snapshot::tables, in the
// order of load_tables()): rows and bytes done and expected, its rate since its first chunk
// (until it finished) and its own ETA (rows left / that rate).
// Expected rows and bytes are estimate()'s (estimate.hpp) for the parts this load writes: 10
// order lines per order on average, so ORDER_LINE's count ends near, not at, its expectation; a
// table is "done" when every part this load writes has written it, whatever its count.
// Bytes are the size of the generated values (a text's length, 8 per number, 0 per NULL), not
// the bytes on the wire. Rows are counted when written, before their transaction commits: a
// warehouse rolled back (cancelled, failed) has had its rows counted.
//
// Cost on the write path: per chunk (rows_per_copy rows, 2000 by default) two relaxed
// fetch_adds on that table's counters; per part and table one compare-exchange when it starts
// and one fetch_add when it ends. No lock; each table's counters sit on their own cache line.
//
// Lifetime: outlives the load it is passed to. Thread-safety: the counting members are called
// by any number of loading coroutines on any threads, snapshot() from any thread at any time.
// Memory ordering: every counter is independent and relaxed; a snapshot is not an atomic cut
// across counters (rows and bytes may be one chunk apart, a table may read done before its
// last rows), which is fine for a display.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tpcc::loader {

inline constexpr std::size_t table_count = 9;

// The tables, in the order of estimate() and of progress_snapshot::tables.
[[nodiscard]] const std::array<std::string_view, table_count>& load_tables() noexcept;
// The position of `table` in load_tables(), or table_count when it is not one of them.
[[nodiscard]] std::size_t table_index(std::string_view table) noexcept;

enum class table_state : std::uint8_t {
  waiting,  // not started by this load
  loading,
  done,  // every part of this load has written it (or this load has none of it to write)
};

struct table_progress {
  std::string_view table;
  table_state state = table_state::waiting;
  std::int64_t rows = 0;
  std::int64_t rows_expected = 0;
  std::int64_t bytes = 0;
  std::int64_t bytes_expected = 0;
  double rows_per_second = 0;  // since its first chunk, until it was done
  double mib_per_second = 0;
  double eta_seconds = -1;  // 0 when done; -1 while unknown (waiting, or nothing written yet)
};

struct progress_snapshot {
  std::int64_t rows = 0;           // written so far (by this load)
  std::int64_t rows_expected = 0;  // what this load will write in all (an estimate)
  std::int64_t bytes = 0;
  std::int64_t warehouses_done = 0;  // committed, including those of an earlier, resumed load
  std::int64_t warehouses_total = 0;
  bool items_done = false;
  double elapsed_seconds = 0;
  double rows_per_second = 0;
  double mib_per_second = 0;
  double eta_seconds = -1;  // -1 while unknown (nothing written yet)
  std::array<table_progress, table_count> tables = waiting_tables();

  // Every table named, waiting, nothing expected.
  [[nodiscard]] static std::array<table_progress, table_count> waiting_tables() noexcept;
};

class load_progress {
 public:
  using clock = std::chrono::steady_clock;

  // The loader, once it knows the work: resets every counter, sets what each table expects
  // (estimate() of the warehouses left, ITEM unless done) and starts the clock.
  void start(std::int64_t warehouses_total, std::int64_t warehouses_done, bool items_done,
             clock::time_point now = clock::now());
  // A part is about to write its first chunk of `table` (an index of load_tables()).
  void table_started(std::size_t table, clock::time_point now = clock::now()) noexcept;
  // A chunk of `table` was written.
  void add(std::size_t table, std::int64_t rows, std::int64_t bytes) noexcept;
  // A part wrote its last chunk of `table`.
  void table_finished(std::size_t table, clock::time_point now = clock::now()) noexcept;
  void warehouse_done() noexcept;
  void items_done() noexcept;

  [[nodiscard]] progress_snapshot snapshot(clock::time_point now = clock::now()) const;

 private:
  // One table's counters, all relaxed (see the header); ticks are steady_clock counts, 0: none.
  struct alignas(64) table_counters {
    std::atomic<std::int64_t> rows{0};
    std::atomic<std::int64_t> bytes{0};
    std::atomic<std::int64_t> rows_expected{0};
    std::atomic<std::int64_t> bytes_expected{0};
    std::atomic<std::int64_t> parts_expected{0};
    std::atomic<std::int64_t> parts_finished{0};
    std::atomic<clock::rep> started{0};   // the first chunk's start
    std::atomic<clock::rep> finished{0};  // when the last part finished it
  };

  void reset_table(std::size_t t, std::int64_t rows, std::int64_t bytes, std::int64_t parts);
  [[nodiscard]] table_progress table_snapshot(std::size_t t, clock::rep now) const;

  std::array<table_counters, table_count> tables_;
  std::atomic<std::int64_t> warehouses_done_{0};
  std::atomic<std::int64_t> warehouses_total_{0};
  std::atomic<bool> items_done_{false};
  std::atomic<clock::rep> started_{0};  // clock ticks at start; 0 before start
};

}  // namespace tpcc::loader
