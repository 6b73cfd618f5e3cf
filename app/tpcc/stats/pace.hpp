// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/pace.hpp: what `run --rate` offered against what the database took: intended
// starts, how late they began, and the backlog at the window's start and end.
//
// What: a paced terminal (terminal/pace.hpp) reports each transaction it begins with its
// intended start (began()), and when it leaves, each intended start already due that it never
// began (never_began()). An intended start is "behind" at time T when it was due (intended
// <= T) and had not begun by T; the backlog at T is how many were behind and how late the
// oldest was. It is taken at the window's start and end, so a backlog that grows over the
// window is seen whatever happened before it; intended starts inside the window are the
// offered count, those of them begun the started count.
// Thread-safety: began() and never_began() from any thread (relaxed atomics: counters and
// maxima, read only by take(), which may miss events in flight); close_window() from one
// thread, before the terminals are told to stop.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "stats/recorder.hpp"

namespace tpcc::stats {

struct backlog {
  std::uint64_t behind = 0;   // intended starts due and not begun
  double oldest_seconds = 0;  // how late the oldest of them was
};

struct pace_totals {
  double offered_tpm = 0;      // as asked (--rate)
  double window_seconds = 0;   // the window the counts below are of
  std::uint64_t intended = 0;  // intended starts inside the window
  std::uint64_t began = 0;     // of them, begun (late or not)
  double max_lag_seconds = 0;  // of them, the longest wait to begin
  backlog at_start, at_end;    // at the window's start and end
  /// The backlog grew over the window by more than noise: its oldest start at the end is later
  /// than at the start by more than max(1 s, 1 % of the window): a stable
  /// database keeps it about constant, one short of capacity by 1 % adds 1 % of the window.
  [[nodiscard]] bool grew() const noexcept;
  /// Another client's figures of the same window added (merge): offered rates, counts and the
  /// numbers behind add; the window is the longer, the lags the worse.
  void add(const pace_totals& other) noexcept;
};

class pace_recorder {
 public:
  pace_recorder(clock::time_point window_start, clock::time_point window_end) noexcept;

  /// A transaction intended to start at `intended` began at `actual`.
  void began(clock::time_point intended, clock::time_point actual) noexcept;
  /// A terminal left with the start intended at `intended` due and never begun.
  void never_began(clock::time_point intended) noexcept;
  /// Ends the window early (an interrupt) at `t` if t is earlier.
  void close_window(clock::time_point t) noexcept;
  [[nodiscard]] clock::time_point window_end() const noexcept;
  [[nodiscard]] pace_totals take(double offered_tpm) const;

 private:
  struct point {
    std::atomic<std::uint64_t> behind{0};
    std::atomic<clock::rep> oldest{0};
  };
  void behind_at(point& p, clock::time_point at, clock::time_point intended) noexcept;

  const clock::time_point start_;
  std::atomic<clock::rep> end_;
  std::atomic<std::uint64_t> intended_{0}, began_{0};
  std::atomic<clock::rep> max_lag_{0};
  point at_start_, at_end_;
};

}  // namespace tpcc::stats
