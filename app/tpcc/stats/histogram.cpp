// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/histogram.cpp: bucket arithmetic and percentiles (see histogram.hpp).
#include "stats/histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tpcc::stats {

namespace bucket {

std::size_t index_of(std::uint64_t micros) noexcept {
  if (micros < linear) return static_cast<std::size_t>(micros);
  const unsigned top = static_cast<unsigned>(std::bit_width(micros)) - 1;  // >= 6
  if (top >= max_exponent) return count - 1;
  const std::uint64_t sub = (micros >> (top - sub_bits)) & ((1U << sub_bits) - 1);
  return linear + (static_cast<std::size_t>(top - 6) << sub_bits) + static_cast<std::size_t>(sub);
}

std::uint64_t upper_edge(std::size_t i) noexcept {
  if (i < linear) return i;
  const std::size_t k = i - linear;
  const unsigned top = static_cast<unsigned>(k >> sub_bits) + 6;
  const std::uint64_t sub = k & ((1U << sub_bits) - 1);
  const unsigned shift = top - sub_bits;
  return (((std::uint64_t{1} << sub_bits) + sub + 1) << shift) - 1;
}

}  // namespace bucket

namespace {
std::uint64_t to_micros(std::chrono::nanoseconds d) noexcept {
  return d.count() <= 0 ? 0 : static_cast<std::uint64_t>(d.count() / 1000);
}
}  // namespace

void histogram::record(std::uint64_t micros, std::uint64_t times) noexcept {
  counts_[bucket::index_of(micros)] += times;
  total_ += times;
  max_ = std::max(max_, micros);
  sum_ += static_cast<double>(micros) * static_cast<double>(times);
}

void histogram::record(std::chrono::nanoseconds d) noexcept { record(to_micros(d)); }

void histogram::merge(const histogram& other) noexcept {
  for (std::size_t i = 0; i < bucket::count; ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
}

double histogram::mean() const noexcept {
  return total_ == 0 ? 0.0 : sum_ / static_cast<double>(total_);
}

std::uint64_t histogram::percentile(double fraction) const noexcept {
  if (total_ == 0) return 0;
  const double wanted = std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(total_));
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket::count; ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::min(bucket::upper_edge(i), max_);
  }
  return max_;
}

std::uint64_t histogram::count_at_or_below(std::uint64_t micros) const noexcept {
  const std::size_t last = bucket::index_of(micros);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i <= last; ++i) seen += counts_[i];
  return seen;
}

void concurrent_histogram::record(std::chrono::nanoseconds d) noexcept {
  const std::uint64_t us = to_micros(d);
  // Relaxed: counters only; snapshot() pairs with nothing but reads what has landed.
  counts_[bucket::index_of(us)].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(us, std::memory_order_relaxed);
  std::uint64_t seen = max_.load(std::memory_order_relaxed);
  while (us > seen && !max_.compare_exchange_weak(seen, us, std::memory_order_relaxed)) {
  }
}

histogram concurrent_histogram::snapshot() const noexcept {
  histogram h;
  for (std::size_t i = 0; i < bucket::count; ++i) {
    h.counts_[i] = counts_[i].load(std::memory_order_relaxed);
    h.total_ += h.counts_[i];
  }
  h.max_ = max_.load(std::memory_order_relaxed);
  h.sum_ = static_cast<double>(sum_.load(std::memory_order_relaxed));
  return h;
}

}  // namespace tpcc::stats
