// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/histogram.hpp: a mergeable log-linear latency histogram, in microseconds.
//
// What: values are counted in buckets 1 us wide below 64 us, then 32 buckets per power of two
// (each at most 1/32 = 3.1% wide), up to 2^40 us (12.7 days; larger values land in the last
// bucket). Two histograms merge by adding bucket counts, so per-worker, per-interval and
// per-process results combine exactly; percentiles are never averaged. A percentile reports
// the upper edge of the bucket it falls in, so it is never below the true value and at most
// 3.1% above it.
// `histogram` is a plain value (one owner); `concurrent_histogram` takes records from any
// thread (relaxed atomic increments: counts are exact, a snapshot taken during recording may
// miss records in flight) and gives plain snapshots.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace tpcc::stats {

namespace bucket {
inline constexpr std::uint64_t linear = 64;   // 1 us buckets below this
inline constexpr unsigned sub_bits = 5;       // 32 sub-buckets per power of two above
inline constexpr unsigned max_exponent = 40;  // values up to 2^40 us
inline constexpr std::size_t count = linear + (max_exponent - 6) * (std::size_t{1} << sub_bits);

[[nodiscard]] std::size_t index_of(std::uint64_t micros) noexcept;
// The largest value counted in bucket i.
[[nodiscard]] std::uint64_t upper_edge(std::size_t i) noexcept;
}  // namespace bucket

class histogram {
 public:
  void record(std::uint64_t micros, std::uint64_t times = 1) noexcept;
  void record(std::chrono::nanoseconds d) noexcept;
  void merge(const histogram& other) noexcept;

  [[nodiscard]] std::uint64_t count() const noexcept { return total_; }
  [[nodiscard]] std::uint64_t max() const noexcept { return max_; }
  [[nodiscard]] double mean() const noexcept;
  // The sum of the values recorded, in us (monotonic as records are added).
  [[nodiscard]] double sum_micros() const noexcept { return sum_; }
  // The value at or below which `fraction` (0..1) of the records fall, in us; 0 when empty.
  [[nodiscard]] std::uint64_t percentile(double fraction) const noexcept;
  // Records at or below `micros`.
  [[nodiscard]] std::uint64_t count_at_or_below(std::uint64_t micros) const noexcept;
  [[nodiscard]] std::uint64_t bucket_count(std::size_t i) const noexcept { return counts_[i]; }

 private:
  friend class concurrent_histogram;
  std::array<std::uint64_t, bucket::count> counts_{};
  std::uint64_t total_ = 0;
  std::uint64_t max_ = 0;
  double sum_ = 0;  // us, for the mean
};

class concurrent_histogram {
 public:
  void record(std::chrono::nanoseconds d) noexcept;
  [[nodiscard]] histogram snapshot() const noexcept;

 private:
  std::array<std::atomic<std::uint64_t>, bucket::count> counts_{};
  std::atomic<std::uint64_t> max_{0};
  std::atomic<std::uint64_t> sum_{0};
};

}  // namespace tpcc::stats
