// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/sampler.cpp: interval samples from cumulative snapshots (see sampler.hpp).
#include "stats/sampler.hpp"

#include <algorithm>

namespace tpcc::stats {
namespace {

interval_kind between(const kind_totals& now, const kind_totals& before) {
  interval_kind k;
  k.outcomes = now.outcomes - before.outcomes;
  k.retries = now.retries - before.retries;
  k.response = sparse_histogram::difference(now.response, before.response);
  k.queued = sparse_histogram::difference(now.queued, before.queued);
  k.service = sparse_histogram::difference(now.service, before.service);
  return k;
}

}  // namespace

sampler::sampler(const cumulative& baseline, double start_seconds)
    : last_(baseline), last_end_(start_seconds) {}

interval_sample sampler::next(const cumulative& now, double end_seconds, phase in) {
  interval_sample s;
  s.start_seconds = last_end_;
  s.end_seconds = end_seconds;
  s.in = in;
  // Each part moves on only when an interval takes it: a window record counted while a
  // warm-up interval ran late past the window's start goes to the first measurement interval,
  // an outside one counted during a late measurement interval to the next drain interval.
  const bool measuring = in == phase::measuring;
  for (std::size_t i = 0; i < txn::kind_count; ++i) {
    s.kinds[i] = measuring ? between(now.window[i], last_.window[i])
                           : between(now.outside[i], last_.outside[i]);
  }
  if (measuring) {
    measuring_base_ = last_.window;
    last_.window = now.window;
  } else {
    last_.outside = now.outside;
  }
  last_.kinds = now.kinds;
  last_end_ = end_seconds;
  return s;
}

void sampler::settle(std::vector<interval_sample>& series, const cumulative& final) const {
  const auto last = std::find_if(series.rbegin(), series.rend(),
                                 [](const interval_sample& s) { return s.in == phase::measuring; });
  if (last == series.rend()) return;
  for (std::size_t i = 0; i < txn::kind_count; ++i) {
    last->kinds[i] = between(final.window[i], measuring_base_[i]);
  }
}

}  // namespace tpcc::stats
