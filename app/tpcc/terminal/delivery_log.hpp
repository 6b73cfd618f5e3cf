// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/delivery_log.hpp: the deferred Delivery result file of clause 2.7.2.3
// (--delivery-log FILE).
//
// What: one line per deferred Delivery that ended (completed, failed, or abandoned at the end
// of the drain), in the order they ended:
//   queued=<ISO UTC> completed=<ISO UTC> w_id=<W> carrier=<C> d1=<O_ID|skipped> ... d10=...
// with `status=failed` or `status=abandoned` (and no district fields) for one that did not
// complete. Times are wall clock, UTC, with milliseconds. Lines starting with '#' are comments
// (the first one says what the file is).
// Lifetime: create() before the deliverers start, close() once they have all left.
// Thread-safety: write() from any thread at once (a mutex orders the lines).
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include "stats/recorder.hpp"
#include "txn/delivery.hpp"

namespace tpcc::terminal {

class delivery_log {
 public:
  enum class ending : std::uint8_t { completed, failed, abandoned };

  // The log, or why the file could not be created (naming it).
  [[nodiscard]] static std::variant<std::unique_ptr<delivery_log>, std::string> create(
      const std::string& path);
  delivery_log(const delivery_log&) = delete;
  delivery_log& operator=(const delivery_log&) = delete;
  ~delivery_log();

  // `out` is read only when completed.
  void write(stats::clock::time_point queued, stats::clock::time_point end, std::int64_t w_id,
             std::int64_t carrier, ending how, const txn::delivery_output& out);
  // Flushes and closes; the error, naming the file, when a write failed (disk full?).
  [[nodiscard]] std::optional<std::string> close();

 private:
  delivery_log(std::FILE* file, std::string path);
  [[nodiscard]] std::string wall(stats::clock::time_point t) const;

  std::mutex mutex_;
  std::FILE* file_;
  std::string path_;
  std::chrono::system_clock::duration offset_;  // wall clock minus steady clock
};

}  // namespace tpcc::terminal
