// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_ch_series.cpp: the shards' analytic series as one (see
// merge_ch_series.hpp).
#include "report/merge_ch_series.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tpcc::report {
namespace {

void add_ch_interval(run::ch_interval& a, const run::ch_interval& b) {
  a.completed += b.completed;
  a.failed += b.failed;
  a.cancelled += b.cancelled;
  a.p90_us = std::max(a.p90_us, b.p90_us);  // 0 where none completed: never the max
}

}  // namespace

merged_ch_series merge_ch_series(const std::vector<shard_ch_series>& shards,
                                 double interval_seconds) {
  merged_ch_series out;
  for (const shard_ch_series& shard : shards) {
    if (shard.ch->ran() && shard.ch->series.empty()) {
      out.why_not = *shard.file + " has no analytic series";
      return out;
    }
  }
  const double width = interval_seconds > 0 ? interval_seconds : 1.0;
  std::map<long long, run::ch_interval> bins;
  for (const shard_ch_series& shard : shards) {
    for (const run::ch_interval& i : shard.ch->series) {
      const long long bin = std::llround((i.start_seconds + shard.offset_seconds) / width);
      auto [it, fresh] = bins.try_emplace(bin);
      if (!fresh) {
        add_ch_interval(it->second, i);
        continue;
      }
      it->second = i;
      it->second.start_seconds = static_cast<double>(bin) * width;
      it->second.end_seconds = it->second.start_seconds + (i.end_seconds - i.start_seconds);
    }
  }
  for (auto& [bin, interval] : bins) out.series.push_back(interval);
  return out;
}

}  // namespace tpcc::report
