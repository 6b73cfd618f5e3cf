// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_series.cpp: series aligned by wall clock (see merge_series.hpp).
#include "report/merge_series.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/merge.hpp"

namespace tpcc::report {
namespace {

void add_client(stats::client_sample& a, const stats::client_sample& b) {
  a.workers.insert(a.workers.end(), b.workers.begin(), b.workers.end());
  a.lateness_p99_us = std::max(a.lateness_p99_us, b.lateness_p99_us);
  a.queue_delay_p99_us = std::max(a.queue_delay_p99_us, b.queue_delay_p99_us);
  a.pool_size += b.pool_size;
  a.pool_in_use += b.pool_in_use;
  a.pool_waiting += b.pool_waiting;
  a.deliveries_queued += b.deliveries_queued;
  a.cpu_seconds += b.cpu_seconds;
  a.rss_bytes = std::max(a.rss_bytes, b.rss_bytes);
}

void add_interval(stats::interval_sample& a, const stats::interval_sample& b) {
  for (std::size_t k = 0; k < a.kinds.size(); ++k) {
    stats::interval_kind& x = a.kinds[k];
    const stats::interval_kind& y = b.kinds[k];
    x.outcomes += y.outcomes;
    x.retries += y.retries;
    add_sparse(x.response, y.response);
    add_sparse(x.queued, y.queued);
    add_sparse(x.service, y.service);
  }
  a.in = std::max(a.in, b.in);
  add_client(a.client, b.client);
}

}  // namespace

std::vector<stats::interval_sample> merge_series(const std::vector<shard_series>& shards,
                                                 double interval_seconds) {
  const double width = interval_seconds > 0 ? interval_seconds : 1.0;
  std::map<long long, stats::interval_sample> bins;
  for (const shard_series& shard : shards) {
    for (const stats::interval_sample& s : *shard.series) {
      const long long bin = std::llround((s.start_seconds + shard.offset_seconds) / width);
      auto [it, fresh] = bins.try_emplace(bin);
      if (fresh) {
        it->second = s;
        it->second.start_seconds = static_cast<double>(bin) * width;
        it->second.end_seconds = it->second.start_seconds + (s.end_seconds - s.start_seconds);
      } else {
        add_interval(it->second, s);
      }
    }
  }
  std::vector<stats::interval_sample> out;
  out.reserve(bins.size());
  for (auto& [bin, sample] : bins) out.push_back(std::move(sample));
  return out;
}

}  // namespace tpcc::report
