// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/estimate.cpp: figures with their intervals (see estimate.hpp).
#include "compare/estimate.hpp"

#include <algorithm>
#include <cmath>

#include "report/summary.hpp"

namespace tpcc::compare {
namespace {

// Completed transactions of `k` (or of all types) per group: the group counts of the window.
stats::group_counts::counts completed_per_group(const run::run_result& r,
                                                std::optional<txn::kind> k) {
  stats::group_counts::counts out{};
  for (const txn::kind each : txn::all_kinds) {
    if (k && *k != each) continue;
    const stats::group_counts& g = r.results.kinds[txn::index(each)].groups;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] += g.completed[i];
  }
  return out;
}

// Half the cluster interval of a total over groups of `size` terminals (ratio estimator: the
// rate per terminal, its variance from how the groups differ); nullopt with too few groups.
std::optional<double> cluster_half_width(const stats::group_counts::counts& count,
                                         const stats::group_counts::counts& size) {
  double total = 0, terminals = 0;
  std::size_t groups = 0;
  for (std::size_t g = 0; g < count.size(); ++g) {
    if (size[g] == 0) continue;
    total += static_cast<double>(count[g]);
    terminals += static_cast<double>(size[g]);
    ++groups;
  }
  if (groups < report::min_cluster_groups || terminals <= 0) return std::nullopt;
  const double rate = total / terminals;
  double squares = 0;
  for (std::size_t g = 0; g < count.size(); ++g) {
    if (size[g] == 0) continue;
    const double residual = static_cast<double>(count[g]) - rate * static_cast<double>(size[g]);
    squares += residual * residual;
  }
  const auto k = static_cast<double>(groups);
  return report::t_verdict(k - 1) * std::sqrt(squares * k / (k - 1));
}

// The value of the bucket holding rank `rank` (1-based) of `h`: its lower edge or upper edge.
double rank_value_us(const stats::histogram& h, std::uint64_t rank, bool upper) {
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < stats::bucket::count; ++i) {
    seen += h.bucket_count(i);
    if (seen < rank) continue;
    if (upper) return static_cast<double>(stats::bucket::upper_edge(i));
    return i == 0 ? 0.0 : static_cast<double>(stats::bucket::upper_edge(i - 1) + 1);
  }
  return static_cast<double>(h.max());
}

}  // namespace

stats::group_counts::counts terminals_per_group(const run::run_result& r) {
  stats::group_counts::counts out{};
  const std::int64_t per_warehouse = r.config.terminals_per_warehouse;
  const std::int64_t warehouses = r.shard_warehouses();
  if (per_warehouse < 1 || warehouses < 1 || warehouses * per_warehouse != r.terminals) {
    out.fill(1);
    return out;
  }
  // Terminal d (0-based) of warehouse w is number (w - 1) x 10 + d mod 10 (run/run.cpp): per
  // warehouse, m[j] terminals at offset j; and as 10 x 16 = 5 x 32, the warehouses' groups repeat
  // every 16 warehouses. Counted in closed form: a hostile result's billion warehouses cost
  // nothing.
  for (std::int64_t c = 0; c < 16; ++c) {
    const std::int64_t first = r.first_warehouse - 1, last = r.last_warehouse - 1;
    // Warehouses w with w - 1 in [first, last] and (w - 1) mod 16 == c.
    const auto below = [c](std::int64_t x) { return x < c ? 0 : (x - c) / 16 + 1; };  // <= x
    const std::int64_t count = below(last) - (first > 0 ? below(first - 1) : 0);
    for (std::int64_t j = 0; j < 10; ++j) {
      const std::int64_t m = per_warehouse / 10 + (j < per_warehouse % 10 ? 1 : 0);
      out[static_cast<std::size_t>((c * 10 + j) % 32)] += static_cast<std::uint64_t>(count * m);
    }
  }
  return out;
}

estimate throughput(const run::run_result& r, std::optional<txn::kind> k) {
  if (r.measured_seconds <= 0) return {};
  std::uint64_t count = 0;
  for (const txn::kind each : txn::all_kinds) {
    if (!k || *k == each) count += r.results.kinds[txn::index(each)].outcomes.completed();
  }
  const double n = static_cast<double>(count);
  const double per_minute = 60.0 / r.measured_seconds;
  // The Poisson interval of the count (its variance the count), as a floor: a run whose
  // terminals all run alike still varies from run to run by about that much.
  double half = report::z_verdict * std::sqrt(std::max(n, 1.0));
  const auto cluster = cluster_half_width(completed_per_group(r, k), terminals_per_group(r));
  if (cluster) half = std::max(half, *cluster);
  return {n * per_minute, {std::max(0.0, n - half) * per_minute, (n + half) * per_minute}, true};
}

estimate percentile_ms(const stats::histogram& h, double fraction, double lateness_ms) {
  const std::uint64_t n = h.count();
  if (n == 0) return {};
  const auto at = static_cast<std::uint64_t>(std::llround(fraction * static_cast<double>(n)));
  const report::interval share = report::wilson(std::min(at, n), n);
  const auto rank = [n](double s) {
    return std::clamp<std::uint64_t>(
        static_cast<std::uint64_t>(std::ceil(s * static_cast<double>(n))), 1, n);
  };
  estimate e;
  e.value = static_cast<double>(h.percentile(fraction)) / 1000.0;
  e.ci = {rank_value_us(h, rank(share.low), false) / 1000.0,
          rank_value_us(h, rank(share.high), true) / 1000.0};
  e.ci.low = std::max(0.0, std::min(e.ci.low, e.value) - lateness_ms);
  e.ci.high = std::max(e.ci.high, e.value);
  e.known = true;
  return e;
}

bool overlap(report::interval a, report::interval b) noexcept {
  return a.low <= b.high && b.low <= a.high;
}

}  // namespace tpcc::compare
