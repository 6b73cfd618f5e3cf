// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/pace_windows.cpp: the --rate figures per window (see pace_windows.hpp).
#include "stats/pace_windows.hpp"

namespace tpcc::stats {

pace_windows::pace_windows(pace_span whole, const std::vector<pace_span>& steps)
    : whole_(whole.start, whole.end) {
  steps_.reserve(steps.size());
  for (const pace_span& s : steps)
    steps_.push_back(std::make_unique<pace_recorder>(s.start, s.end));
}

void pace_windows::began(clock::time_point intended, clock::time_point actual) noexcept {
  whole_.began(intended, actual);
  for (const auto& step : steps_) step->began(intended, actual);
}

void pace_windows::never_began(clock::time_point intended) noexcept {
  whole_.never_began(intended);
  for (const auto& step : steps_) step->never_began(intended);
}

void pace_windows::close_window(clock::time_point t) noexcept {
  whole_.close_window(t);
  for (const auto& step : steps_) step->close_window(t);
}

clock::time_point pace_windows::window_end() const noexcept { return whole_.window_end(); }

pace_totals pace_windows::take(double offered_tpm) const { return whole_.take(offered_tpm); }

pace_totals pace_windows::take_step(std::size_t i, double offered_tpm) const {
  return steps_.at(i)->take(offered_tpm);
}

}  // namespace tpcc::stats
