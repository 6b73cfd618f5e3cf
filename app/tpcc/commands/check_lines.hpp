// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/check_lines.hpp: the consistency check's progress lines on stderr.
//
// What: at most one line every 2 s: before a condition's statement, which condition of how many
// on which warehouses (step); after a chunk, the warehouses done of all (chunk_done), and
// always the last one.
// Thread-safety: one check at a time (its callbacks run one after another).
#pragma once

#include <chrono>
#include <cstdint>

#include "check/check.hpp"

namespace tpcc::commands {

class check_lines {
 public:
  /// `total`: the warehouses the check covers.
  explicit check_lines(std::int64_t total) : total_(total) {}

  void step(const check::check_step& s);
  void chunk_done(std::int64_t done);

 private:
  bool due();
  [[nodiscard]] const char* noun() const { return total_ == 1 ? "warehouse" : "warehouses"; }
  [[nodiscard]] double elapsed() const;

  std::int64_t total_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace tpcc::commands
