// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/pace.cpp: the --rate figures (see pace.hpp).
#include "stats/pace.hpp"

#include <algorithm>
#include <utility>

namespace tpcc::stats {
namespace {

// Raises `max` to `v`; relaxed: a maximum read only by take().
void raise_to(std::atomic<clock::rep>& max, clock::rep v) noexcept {
  clock::rep seen = max.load(std::memory_order_relaxed);
  while (v > seen && !max.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
  }
}

double seconds_of(clock::rep ticks) {
  return std::chrono::duration<double>(clock::duration(ticks)).count();
}

backlog copy_backlog(const std::atomic<std::uint64_t>& behind,
                     const std::atomic<clock::rep>& oldest) {
  return {behind.load(std::memory_order_relaxed),
          seconds_of(oldest.load(std::memory_order_relaxed))};
}

}  // namespace

bool pace_totals::grew() const noexcept {
  const double noise = std::max(1.0, 0.01 * window_seconds);
  return at_end.oldest_seconds > at_start.oldest_seconds + noise;
}

void pace_totals::add(const pace_totals& other) noexcept {
  offered_tpm += other.offered_tpm;
  window_seconds = std::max(window_seconds, other.window_seconds);
  intended += other.intended;
  began += other.began;
  max_lag_seconds = std::max(max_lag_seconds, other.max_lag_seconds);
  for (auto [mine, theirs] : {std::pair{&at_start, &other.at_start}, {&at_end, &other.at_end}}) {
    mine->behind += theirs->behind;
    mine->oldest_seconds = std::max(mine->oldest_seconds, theirs->oldest_seconds);
  }
}

pace_recorder::pace_recorder(clock::time_point window_start, clock::time_point window_end) noexcept
    : start_(window_start), end_(window_end.time_since_epoch().count()) {}

clock::time_point pace_recorder::window_end() const noexcept {
  return clock::time_point(clock::duration(end_.load(std::memory_order_relaxed)));
}

void pace_recorder::close_window(clock::time_point t) noexcept {
  if (t < window_end()) end_.store(t.time_since_epoch().count(), std::memory_order_relaxed);
}

void pace_recorder::behind_at(point& p, clock::time_point at, clock::time_point intended) noexcept {
  p.behind.fetch_add(1, std::memory_order_relaxed);  // a counter, read by take()
  raise_to(p.oldest, (at - intended).count());
}

void pace_recorder::began(clock::time_point intended, clock::time_point actual) noexcept {
  const clock::time_point end = window_end();
  if (intended <= start_ && actual > start_) behind_at(at_start_, start_, intended);
  if (intended <= end && actual > end) behind_at(at_end_, end, intended);
  if (intended < start_ || intended >= end) return;
  intended_.fetch_add(1, std::memory_order_relaxed);  // counters, read by take()
  began_.fetch_add(1, std::memory_order_relaxed);
  if (actual > intended) raise_to(max_lag_, (actual - intended).count());
}

void pace_recorder::never_began(clock::time_point intended) noexcept {
  const clock::time_point end = window_end();
  if (intended <= start_) behind_at(at_start_, start_, intended);
  if (intended <= end) behind_at(at_end_, end, intended);
  if (intended >= start_ && intended < end) {
    intended_.fetch_add(1, std::memory_order_relaxed);  // a counter, read by take()
  }
}

pace_totals pace_recorder::take(double offered_tpm) const {
  pace_totals t;
  t.offered_tpm = offered_tpm;
  t.window_seconds = std::max(0.0, std::chrono::duration<double>(window_end() - start_).count());
  t.intended = intended_.load(std::memory_order_relaxed);
  t.began = began_.load(std::memory_order_relaxed);
  t.max_lag_seconds = seconds_of(max_lag_.load(std::memory_order_relaxed));
  t.at_start = copy_backlog(at_start_.behind, at_start_.oldest);
  t.at_end = copy_backlog(at_end_.behind, at_end_.oldest);
  return t;
}

}  // namespace tpcc::stats
