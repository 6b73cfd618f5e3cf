// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/recorder.hpp: what the terminals report, counted for the measurement interval.
//
// What: terminals and deliverers call record() when a transaction ends; only transactions that
// END inside the measurement window [start, end) count towards the results (clause 5.5: the
// measurement interval); others are counted apart as outside the window. Per transaction type:
// one count per outcome (stats/outcomes.hpp: committed, retried then committed, the spec's
// rollback, failed with retries exhausted, failed, lost, abandoned), retries, failures per
// SQLSTATE class, and three latency histograms of COMPLETED transactions only: time queued for
// a connection, time inside the transaction, and the response time the terminal saw (clause
// 5.5.1: from submission to the answer; for the deferred Delivery, until it was queued).
// Failures get their own histogram (time until the failure was known), so a failing statement
// never makes the percentiles look fast or slow. Deferred deliveries queued inside the window
// add their completion time from queueing (clause 2.7.2.2), the districts skipped and how many
// completed within 80 s, or count as failed (a failed or abandoned one is never on time). The
// input-variability counters record what terminals
// keyed in (clause 5.2.5 / 2.4.1.5 / 2.5.1.2 / 2.6.1.2).
// Apart from the window, every transaction of every phase is also counted in a second set of
// per-type counters and histograms: take_all() gives them as a cumulative snapshot, from which
// the interval series is cut (stats/sampler.hpp).
// snapshot() copies everything into plain values: the summary and any display render
// snapshots, never the live counters.
// Thread-safety: record* from any thread at once (relaxed atomics; the counts are exact;
// nothing is allocated, failures per SQLSTATE class included: one counter per possible class);
// take() and take_all() from any thread, may miss records in flight (each counter is exact
// and monotonic, so consecutive snapshots never go back); close_window() from one thread.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "driver/outcome.hpp"
#include "stats/histogram.hpp"
#include "stats/outcomes.hpp"
#include "txn/kind.hpp"

namespace tpcc::stats {

using clock = std::chrono::steady_clock;

// The terminals are counted in groups, terminal t in group t % terminal_group_count, so the
// verdict can tell how much its shares vary from terminal to terminal (a terminal's
// transactions are not independent draws: its deck, its own sequence): each group's counts are
// one independent sample (docs/tpcc/results.md, how each item is judged).
inline constexpr std::size_t terminal_group_count = 32;

// Per terminal group, of one transaction type in the window: transactions ended (any outcome),
// completed, completed slower than the type's p90 limit (txn::p90_limit_seconds), failed
// (failed or retries exhausted).
struct group_counts {
  using counts = std::array<std::uint64_t, terminal_group_count>;
  counts ended{}, completed{}, over_limit{}, failed{};
};

struct txn_record {
  txn::kind kind = txn::kind::new_order;
  std::uint16_t group = 0;  // the terminal's group (terminal_group_count)
  driver::outcome_kind status = driver::outcome_kind::ok;
  std::string sqlstate;    // the failure's SQLSTATE, empty when none
  bool abandoned = false;  // the run's shutdown cut it short
  int retries = 0;
  std::chrono::nanoseconds queued{0};
  std::chrono::nanoseconds service{0};
  std::chrono::nanoseconds response{0};
  std::uint64_t round_trips = 0;
  clock::time_point end;
};

// What terminals keyed in, for the input-variability audit.
struct input_counts {
  std::uint64_t new_orders = 0, order_lines = 0, remote_lines = 0, rollbacks_asked = 0;
  std::uint64_t payments = 0, remote_payments = 0, payments_by_name = 0;
  std::uint64_t order_statuses = 0, order_statuses_by_name = 0;
  std::uint64_t think_times = 0;     // thinks begun in the window and ended (not censored)
  std::uint64_t think_censored = 0;  // thinks begun in the window, cut short by the run's end
  double think_seconds = 0;          // sum of the ended ones as slept (record_think), unscaled
  // Sum over every think begun in the window of its time slept over its type's mean, a censored
  // one's elapsed part included: over think_times, the estimate of the ratio applied / spec.
  double think_relative = 0;
  // Of the ended thinks, how late their sleep woke past what was asked (its think and the next
  // keying time): the sum in real seconds (not scaled back), and the same over each one's type's
  // mean and the wait scale, the part of think_relative that is the timer's lateness.
  double think_late_seconds = 0;
  double think_late_relative = 0;
};

// One think time as the terminal slept it, for record_think.
struct think_sample {
  std::chrono::nanoseconds slept{};  // scaled back by the wait scale
  double relative = 0;               // slept over its type's mean
  std::chrono::nanoseconds late{};   // woke this much past the sleep asked, real time
  double late_relative = 0;          // late, scaled back, over its type's mean
  bool censored = false;             // cut short by the run's end: slept is its elapsed part
};

// Failures counted by SQLSTATE class (its first two characters; "--" when there was none, such
// as a closed socket or a client-side check).
using error_class_counts = std::map<std::string, std::uint64_t>;

// The class `sqlstate` is counted under.
[[nodiscard]] std::string error_class(const std::string& sqlstate);

// A SQLSTATE class as a counter slot: two characters of [0-9A-Z] (36 x 36 slots), and one
// more slot for "--" (no SQLSTATE, or one that is not five such characters).
inline constexpr std::size_t error_class_slots = 36 * 36 + 1;
[[nodiscard]] std::size_t error_class_slot(const std::string& sqlstate) noexcept;
[[nodiscard]] std::string error_class_of_slot(std::size_t slot);

struct kind_totals {
  outcome_counts outcomes;
  std::uint64_t retries = 0;
  std::uint64_t round_trips = 0;        // of every attempt, failed ones too
  histogram response, queued, service;  // completed transactions only
  histogram failed_response;            // failures: until the failure was known
  error_class_counts error_classes;     // failures by SQLSTATE class
  group_counts groups;                  // the same outcomes per terminal group
  // Transactions still in flight when the window ended (begun before its end, ended after it,
  // whatever their outcome): censored responses at least as long as their age at the window's
  // end; those older than the type's p90 limit then are surely over it. An abandoned one is
  // also counted in the window's outcomes (it has no end to be counted by).
  std::uint64_t in_flight_at_end = 0, in_flight_over_limit = 0;
};

struct snapshot {
  std::array<kind_totals, txn::kind_count> kinds;
  std::uint64_t outside_window = 0;  // transactions that ended in warm-up or drain
  std::uint64_t deliveries_done = 0, deliveries_on_time = 0, skipped_districts = 0;
  std::uint64_t deliveries_failed = 0;  // failed or abandoned, the lost included
  std::uint64_t deliveries_lost = 0;    // of the failed: the connection or a node was lost
  histogram delivery_completion;        // queue to completion of deferred deliveries
  input_counts inputs;
  clock::time_point window_start, window_end;  // window_end: as closed, or as planned
  // The longest time in the window with no transaction completing (any type; from the window's
  // start to the first completion and from the last to its end included), and when it began,
  // in seconds from the window's start: a database that stops answering shows here.
  double longest_stall_seconds = 0;
  double stall_began_seconds = 0;
};

// Every transaction ended so far, in every phase (`kinds`), split into those that ended inside
// the measurement window (`window`) and outside it (`outside`): cumulative, for the interval
// series. Each part is monotonic on its own.
struct cumulative {
  std::array<kind_totals, txn::kind_count> kinds;
  std::array<kind_totals, txn::kind_count> window;
  std::array<kind_totals, txn::kind_count> outside;
  // The deferred deliveries' own ends, every phase (their terminal part is in kinds): for the
  // endpoints' series, which count a deferred Delivery that failed or was lost.
  outcome_counts deliveries;
};

class recorder {
 public:
  recorder(clock::time_point window_start, clock::time_point window_end);

  void record(const txn_record& r) noexcept;
  // A deferred delivery queued at `end - completion` that ended at `end` as `how`: completed
  // (committed, first try or retried), or failed, lost or abandoned (counted as failed, never on
  // time; the lost also as lost). It counts for the window it was queued in (clause 2.7.2.2),
  // wherever it ends; every phase's ends also go to take_all().deliveries. `round_trips`: the
  // deliverer's, added to Delivery's (its terminal part, queueing, makes none).
  void record_delivery(std::chrono::nanoseconds completion, int skipped, txn_outcome how,
                       clock::time_point end, std::uint64_t round_trips = 0) noexcept;
  // Adds what one terminal keyed in at `at`.
  void record_inputs(const input_counts& keyed, clock::time_point at) noexcept;
  // One think time as the terminal slept it (think_sample), counted in the window when it BEGAN
  // at `at` (the end of the transaction it follows). Counted by start, a window's thinks are an
  // unbiased sample whatever the window's length, where counting those that ended in it keeps
  // the short ones of a window about as long as a think. A censored one's lateness is not
  // counted (it did not wake on its timer).
  void record_think(const think_sample& think, clock::time_point at) noexcept;
  // Ends the window early (Ctrl-C, or the run stopped by an error) at `t` if t is earlier.
  void close_window(clock::time_point t) noexcept;
  [[nodiscard]] bool in_window(clock::time_point t) const noexcept;
  // The window [start, end): end as closed, or as planned.
  [[nodiscard]] std::pair<clock::time_point, clock::time_point> window() const noexcept;
  [[nodiscard]] snapshot take() const;
  [[nodiscard]] cumulative take_all() const;
  // Every phase's deferred deliveries by how they ended (take_all().deliveries alone).
  [[nodiscard]] outcome_counts deferred_ends() const noexcept;

 private:
  struct per_kind {
    std::array<std::atomic<std::uint64_t>, outcome_count> outcomes{};
    std::atomic<std::uint64_t> retries{0};
    std::atomic<std::uint64_t> round_trips{0};
    concurrent_histogram response, queued, service, failed_response;
    std::array<std::atomic<std::uint64_t>, error_class_slots> error_classes{};
    using group_array = std::array<std::atomic<std::uint64_t>, terminal_group_count>;
    group_array ended{}, completed{}, over_limit{}, failed{};
    std::atomic<std::uint64_t> in_flight{0}, in_flight_over{0};
  };
  struct inputs {
    std::atomic<std::uint64_t> new_orders{0}, order_lines{0}, remote_lines{0}, rollbacks{0};
    std::atomic<std::uint64_t> payments{0}, remote_payments{0}, payments_by_name{0};
    std::atomic<std::uint64_t> order_statuses{0}, order_statuses_by_name{0};
    std::atomic<std::uint64_t> think_times{0}, think_micros{0};
    std::atomic<std::uint64_t> think_censored{0}, think_relative_micros{0};
    std::atomic<std::uint64_t> think_late_micros{0}, think_late_relative_micros{0};
  };

  static void count(per_kind& k, const txn_record& r) noexcept;
  [[nodiscard]] static kind_totals copy(const per_kind& k);

  const clock::time_point start_;
  std::atomic<clock::rep> end_;  // a time_point's count
  std::array<per_kind, txn::kind_count> kinds_;
  std::array<per_kind, txn::kind_count> all_;            // every phase
  std::array<per_kind, txn::kind_count> outside_kinds_;  // every phase but the window
  std::atomic<std::uint64_t> outside_{0};
  // Completions in the window, for the longest stall: the last one's time, the longest gap
  // between two and when it began (time_point counts; gaps by the order records arrive in).
  std::atomic<clock::rep> last_completion_;
  std::atomic<clock::rep> longest_gap_{0}, gap_began_{0};
  void completed_at(clock::time_point end) noexcept;
  std::atomic<std::uint64_t> deliveries_{0}, on_time_{0}, skipped_{0}, delivery_failed_{0};
  std::atomic<std::uint64_t> delivery_lost_{0};
  std::array<std::atomic<std::uint64_t>, outcome_count> delivery_ends_{};  // every phase
  concurrent_histogram delivery_completion_;
  inputs inputs_;
};

}  // namespace tpcc::stats
