// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/series.hpp: what happened in each interval of a run (throughput and latency
// over time), for the dashboard, the HTML report and the HdrHistogram interval log.
//
// What: an interval_sample covers [start_seconds, end_seconds) since the run started (the
// moment the terminals were started), in every phase, not only the measurement interval. Per
// transaction type it holds the outcome counts of transactions that ENDED in the interval and
// the three latency views of the completed ones (response, queued for a connection, inside the
// transaction) as sparse histograms: only non-empty buckets of stats::histogram's layout, so a long
// run's series stays small and interval histograms still merge exactly (bucket counts add).
// `client` is the client's own measurement over the same interval (stats/client.hpp).
// Thread-safety: plain values.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "stats/client.hpp"
#include "stats/histogram.hpp"
#include "stats/outcomes.hpp"
#include "stats/phase.hpp"
#include "txn/kind.hpp"

namespace tpcc::stats {

// The non-empty buckets of a histogram, ascending by bucket index.
struct sparse_histogram {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> buckets;  // (bucket index, count)

  [[nodiscard]] static sparse_histogram of(const histogram& h);
  // Bucket by bucket `now - before`; `before` must be an earlier snapshot of the same
  // (monotonic) histogram.
  [[nodiscard]] static sparse_histogram difference(const histogram& now, const histogram& before);
  // Back to a dense histogram (the max is the upper edge of the highest non-empty bucket, the
  // mean taken at the buckets' upper edges).
  [[nodiscard]] histogram expand() const;
  [[nodiscard]] std::uint64_t count() const noexcept;
};

struct interval_kind {
  outcome_counts outcomes;
  std::uint64_t retries = 0;
  sparse_histogram response, queued, service;  // completed transactions only
};

struct interval_sample {
  double start_seconds = 0, end_seconds = 0;  // since the run started
  phase in = phase::warmup;                   // the phase the interval starts in
  std::array<interval_kind, txn::kind_count> kinds;
  client_sample client;
};

// One transaction type's part of an endpoint's interval: completed (committed, retried then
// committed, the spec's rollback) and failed (the lost too) that ended in it, and the p90 of the
// completed ones' response time (us, a bucket's upper edge as stats::histogram gives it; 0 when
// none completed).
struct endpoint_kind_interval {
  std::uint64_t completed = 0, failed = 0;
  std::uint64_t p90_us = 0;
};

// One endpoint's part of an interval of a run over several endpoints (--db given more than
// once): the transactions of its warehouses that ended in the interval (every outcome; in all
// and per type) and its session pool at the interval's end. Its full latency histograms are
// over the window (run_result::endpoints), the interval histograms the run's; per type it keeps
// the interval's p90.
struct endpoint_interval {
  double start_seconds = 0, end_seconds = 0;  // the run's interval (the same cut)
  phase in = phase::warmup;
  std::uint64_t completed = 0, new_orders = 0;  // new_orders: completed ones
  std::uint64_t failed = 0, lost = 0;           // failed counts the lost too
  std::size_t pool_size = 0, pool_in_use = 0, pool_waiting = 0;
  std::array<endpoint_kind_interval, txn::kind_count> kinds{};  // indexed by txn::index
};

}  // namespace tpcc::stats
