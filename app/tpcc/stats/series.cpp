// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/series.cpp: sparse interval histograms (see series.hpp).
#include "stats/series.hpp"

namespace tpcc::stats {

sparse_histogram sparse_histogram::of(const histogram& h) {
  sparse_histogram s;
  if (h.count() == 0) return s;
  for (std::size_t i = 0; i < bucket::count; ++i) {
    if (h.bucket_count(i) != 0)
      s.buckets.emplace_back(static_cast<std::uint32_t>(i), h.bucket_count(i));
  }
  return s;
}

sparse_histogram sparse_histogram::difference(const histogram& now, const histogram& before) {
  sparse_histogram s;
  if (now.count() == before.count()) return s;
  for (std::size_t i = 0; i < bucket::count; ++i) {
    const std::uint64_t a = now.bucket_count(i);
    const std::uint64_t b = before.bucket_count(i);
    if (a > b) s.buckets.emplace_back(static_cast<std::uint32_t>(i), a - b);
  }
  return s;
}

histogram sparse_histogram::expand() const {
  histogram h;
  for (const auto& [index, n] : buckets) h.record(bucket::upper_edge(index), n);
  return h;
}

std::uint64_t sparse_histogram::count() const noexcept {
  std::uint64_t total = 0;
  for (const auto& b : buckets) total += b.second;
  return total;
}

const char* to_string(phase p) noexcept {
  switch (p) {
    case phase::starting:
      return "starting";
    case phase::warmup:
      return "warm-up";
    case phase::measuring:
      return "measuring";
    case phase::draining:
      return "draining";
    case phase::done:
      return "done";
  }
  return "?";
}

}  // namespace tpcc::stats
