// app/tpcc/loader/progress.hpp: how far a load has got, for the command line to show.
//
// What: the loader (loader.hpp) counts into a load_progress as it writes: rows and bytes sent,
// warehouses committed, whether ITEM is committed. The command line polls `snapshot()` (about
// once a second) and renders it; the loader itself never prints. A snapshot is a plain value
// with the rates and an ETA derived from the counters and the time since `start`.
// Bytes are the size of the generated values (a text's length, 8 per number, 0 per NULL), not
// the bytes on the wire. Rows are counted when written, before their transaction commits: a
// warehouse rolled back (cancelled, failed) has had its rows counted.
//
// Lifetime: outlives the load it is passed to. Thread-safety: the counting members are called
// by any number of loading coroutines on any threads, snapshot() from any thread at any time.
// Memory ordering: every counter is independent and relaxed; a snapshot is not an atomic cut
// across counters (rows and bytes may be one chunk apart), which is fine for a display.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace tpcc::loader {

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
};

class load_progress {
 public:
  using clock = std::chrono::steady_clock;

  // The loader, once it knows the work: resets every counter and starts the clock.
  void start(std::int64_t rows_expected, std::int64_t warehouses_total,
             std::int64_t warehouses_done, bool items_done, clock::time_point now = clock::now());
  void add(std::int64_t rows, std::int64_t bytes) noexcept;
  void warehouse_done() noexcept;
  void items_done() noexcept;

  [[nodiscard]] progress_snapshot snapshot(clock::time_point now = clock::now()) const;

 private:
  // All relaxed: independent statistics (see the header).
  std::atomic<std::int64_t> rows_{0};
  std::atomic<std::int64_t> rows_expected_{0};
  std::atomic<std::int64_t> bytes_{0};
  std::atomic<std::int64_t> warehouses_done_{0};
  std::atomic<std::int64_t> warehouses_total_{0};
  std::atomic<bool> items_done_{false};
  std::atomic<clock::rep> started_{0};  // clock ticks at start; 0 before start
};

}  // namespace tpcc::loader
