// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/pace.hpp: `run --rate TPM`: when a paced terminal should start its next
// transaction.
//
// What: under --rate the whole client offers TPM transactions per minute (every type), spread
// over its terminals as Poisson arrivals: each terminal's intended starts are the previous one
// plus an exponential gap of mean terminals x 60 / TPM seconds; keying and think times are not
// used. Intended starts never depend on when transactions end, so a terminal behind its
// schedule starts at once, late, and its response time counts from the intended start (no
// coordinated omission). `rate_pace` holds the current mean gap, so that a step schedule can
// change the rate mid-run: each draw reads it. The model and its limits: docs/tpcc/usage.md.
// Thread-safety: rate_pace from any thread (one relaxed atomic: a setting, ordered with
// nothing); paced_clock belongs to one terminal; the functions are pure.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "random/rng.hpp"
#include "stats/recorder.hpp"

namespace tpcc::terminal {

/// The lowest mean gap a terminal may be given (1 ms: the timers' accuracy): --rate is refused
/// above terminals x max_tpm_per_terminal.
inline constexpr double max_tpm_per_terminal = 60'000.0;

/// The mean gap between one terminal's intended starts when `terminals` offer `tpm` together;
/// zero when either is not positive.
[[nodiscard]] std::chrono::nanoseconds mean_gap(double tpm, std::int64_t terminals) noexcept;

/// One exponential gap of mean `mean` (untruncated: -ln(1 - u) x mean, u in [0, 1), so at most
/// about 37 means).
[[nodiscard]] std::chrono::nanoseconds draw_gap(random::rng& r,
                                                std::chrono::nanoseconds mean) noexcept;

/// The run's offered rate as a mean gap per terminal; zero: not paced.
class rate_pace {
 public:
  /// Offers `tpm` over `terminals` from the next draw on.
  void set(double tpm, std::int64_t terminals) noexcept {
    gap_ns_.store(mean_gap(tpm, terminals).count(), std::memory_order_relaxed);  // a setting
  }
  [[nodiscard]] std::chrono::nanoseconds gap() const noexcept {
    return std::chrono::nanoseconds(gap_ns_.load(std::memory_order_relaxed));  // see set()
  }
  [[nodiscard]] bool active() const noexcept { return gap().count() > 0; }

 private:
  std::atomic<std::int64_t> gap_ns_{0};
};

/// One terminal's schedule of intended starts.
struct paced_clock {
  stats::clock::time_point intended{};  // the next intended start

  /// Moves to the next intended start, a gap of mean `mean` after this one.
  void advance(random::rng& r, std::chrono::nanoseconds mean) noexcept {
    intended += draw_gap(r, mean);
  }
  /// How late a start at `now` is (zero when early or on time).
  [[nodiscard]] std::chrono::nanoseconds lag(stats::clock::time_point now) const noexcept {
    return now > intended ? now - intended : std::chrono::nanoseconds(0);
  }
};

}  // namespace tpcc::terminal
