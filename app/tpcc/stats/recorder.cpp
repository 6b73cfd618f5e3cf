// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/recorder.cpp: counting within the measurement window (see recorder.hpp).
#include "stats/recorder.hpp"

#include <algorithm>
#include <string_view>

namespace tpcc::stats {
namespace {

constexpr auto relaxed = std::memory_order_relaxed;  // counters: exact, no ordering needed
// Clause 2.7.2.2 / 5.2.5.3.
constexpr std::chrono::duration<double> delivery_limit{txn::deferred_delivery_limit_seconds};

void add(std::atomic<std::uint64_t>& to, std::uint64_t n) noexcept { to.fetch_add(n, relaxed); }

// A duration or a ratio as a counter of micro-units, never below zero.
std::uint64_t micros_of(std::chrono::nanoseconds d) noexcept {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, us));
}
std::uint64_t micros_of(double units) noexcept {
  return static_cast<std::uint64_t>(std::max(0.0, units) * 1e6);
}

}  // namespace

recorder::recorder(clock::time_point window_start, clock::time_point window_end)
    : start_(window_start),
      end_(window_end.time_since_epoch().count()),
      last_completion_(window_start.time_since_epoch().count()) {}

void recorder::completed_at(clock::time_point end) noexcept {
  const clock::rep now = end.time_since_epoch().count();
  const clock::rep before = last_completion_.exchange(now, relaxed);
  const clock::rep gap = now - before;
  clock::rep longest = longest_gap_.load(relaxed);
  while (gap > longest && !longest_gap_.compare_exchange_weak(longest, gap, relaxed)) {
  }
  if (gap > longest) gap_began_.store(before, relaxed);
}

bool recorder::in_window(clock::time_point t) const noexcept {
  return t >= start_ && t.time_since_epoch().count() < end_.load(relaxed);
}

std::pair<clock::time_point, clock::time_point> recorder::window() const noexcept {
  return {start_, clock::time_point(clock::duration(end_.load(relaxed)))};
}

void recorder::close_window(clock::time_point t) noexcept {
  clock::rep seen = end_.load(relaxed);
  const clock::rep wanted = t.time_since_epoch().count();
  while (wanted < seen && !end_.compare_exchange_weak(seen, wanted, relaxed)) {
  }
}

namespace {

constexpr std::string_view class_digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr std::size_t no_class = error_class_slots - 1;

}  // namespace

std::size_t error_class_slot(const std::string& sqlstate) noexcept {
  if (sqlstate.size() != 5) return no_class;
  const std::size_t high = class_digits.find(sqlstate[0]);
  const std::size_t low = class_digits.find(sqlstate[1]);
  if (high == std::string_view::npos || low == std::string_view::npos) return no_class;
  return high * class_digits.size() + low;
}

std::string error_class_of_slot(std::size_t slot) {
  if (slot >= no_class) return "--";
  return {class_digits[slot / class_digits.size()], class_digits[slot % class_digits.size()]};
}

std::string error_class(const std::string& sqlstate) {
  return error_class_of_slot(error_class_slot(sqlstate));
}

void recorder::count(per_kind& k, const txn_record& r) noexcept {
  const txn_outcome o = classify(r.status, r.retries, r.abandoned);
  const std::size_t g = r.group % terminal_group_count;
  add(k.outcomes[index(o)], 1);
  add(k.retries, static_cast<std::uint64_t>(r.retries));
  add(k.round_trips, r.round_trips);
  add(k.ended[g], 1);
  if (outcome_table[index(o)].completed) {
    k.response.record(r.response);
    k.queued.record(r.queued);
    k.service.record(r.service);
    add(k.completed[g], 1);
    const std::chrono::duration<double> limit{txn::p90_limit_seconds[txn::index(r.kind)]};
    if (r.response > limit) add(k.over_limit[g], 1);
    return;
  }
  if (o == txn_outcome::failed || o == txn_outcome::failed_retries) add(k.failed[g], 1);
  k.failed_response.record(r.response);
  add(k.error_classes[error_class_slot(r.sqlstate)], 1);
}

void recorder::record(const txn_record& r) noexcept {
  per_kind& window = kinds_[txn::index(r.kind)];
  count(all_[txn::index(r.kind)], r);
  const clock::time_point began = r.end - r.response;
  const clock::time_point end(clock::duration(end_.load(relaxed)));
  if (began < end && r.end >= end) {  // in flight when the window ended
    add(window.in_flight, 1);
    const std::chrono::duration<double> limit{txn::p90_limit_seconds[txn::index(r.kind)]};
    if (end - began > limit) add(window.in_flight_over, 1);
    if (r.abandoned) {  // no end to count it by: the window's, by type
      count(window, r);
      return;
    }
  }
  if (!in_window(r.end)) {
    add(outside_, 1);
    count(outside_kinds_[txn::index(r.kind)], r);
    return;
  }
  count(window, r);
  const txn_outcome o = classify(r.status, r.retries, r.abandoned);
  if (outcome_table[index(o)].completed) completed_at(r.end);
}

void recorder::record_delivery(std::chrono::nanoseconds completion, int skipped, txn_outcome how,
                               clock::time_point end, std::uint64_t round_trips) noexcept {
  // Clause 2.7.2.2 judges the deliveries queued in the window, however they end.
  const clock::time_point queued = end - completion;
  add(all_[txn::index(txn::kind::delivery)].round_trips, round_trips);
  add(delivery_ends_[index(how)], 1);
  if (!in_window(queued)) {
    add(outside_kinds_[txn::index(txn::kind::delivery)].round_trips, round_trips);
    return;
  }
  add(kinds_[txn::index(txn::kind::delivery)].round_trips, round_trips);
  if (!outcome_table[index(how)].completed) {
    add(delivery_failed_, 1);
    if (how == txn_outcome::lost) add(delivery_lost_, 1);
    return;
  }
  add(deliveries_, 1);
  if (completion <= delivery_limit) add(on_time_, 1);
  add(skipped_, static_cast<std::uint64_t>(skipped));
  delivery_completion_.record(completion);
}

void recorder::record_inputs(const input_counts& keyed, clock::time_point at) noexcept {
  if (!in_window(at)) return;
  add(inputs_.new_orders, keyed.new_orders);
  add(inputs_.order_lines, keyed.order_lines);
  add(inputs_.remote_lines, keyed.remote_lines);
  add(inputs_.rollbacks, keyed.rollbacks_asked);
  add(inputs_.payments, keyed.payments);
  add(inputs_.remote_payments, keyed.remote_payments);
  add(inputs_.payments_by_name, keyed.payments_by_name);
  add(inputs_.order_statuses, keyed.order_statuses);
  add(inputs_.order_statuses_by_name, keyed.order_statuses_by_name);
  add(inputs_.think_times, keyed.think_times);
  add(inputs_.think_micros, static_cast<std::uint64_t>(keyed.think_seconds * 1e6));
}

void recorder::record_think(const think_sample& think, clock::time_point at) noexcept {
  if (!in_window(at)) return;
  add(inputs_.think_relative_micros, micros_of(think.relative));
  if (think.censored) {
    add(inputs_.think_censored, 1);
    return;
  }
  add(inputs_.think_times, 1);
  add(inputs_.think_micros, micros_of(think.slept));
  add(inputs_.think_late_micros, micros_of(think.late));
  add(inputs_.think_late_relative_micros, micros_of(think.late_relative));
}

kind_totals recorder::copy(const per_kind& k) {
  kind_totals t;
  for (std::size_t i = 0; i < outcome_count; ++i) t.outcomes.n[i] = k.outcomes[i].load(relaxed);
  t.retries = k.retries.load(relaxed);
  t.round_trips = k.round_trips.load(relaxed);
  t.response = k.response.snapshot();
  t.queued = k.queued.snapshot();
  t.service = k.service.snapshot();
  t.failed_response = k.failed_response.snapshot();
  for (std::size_t g = 0; g < terminal_group_count; ++g) {
    t.groups.ended[g] = k.ended[g].load(relaxed);
    t.groups.completed[g] = k.completed[g].load(relaxed);
    t.groups.over_limit[g] = k.over_limit[g].load(relaxed);
    t.groups.failed[g] = k.failed[g].load(relaxed);
  }
  t.in_flight_at_end = k.in_flight.load(relaxed);
  t.in_flight_over_limit = k.in_flight_over.load(relaxed);
  for (std::size_t slot = 0; slot < error_class_slots; ++slot) {
    const std::uint64_t n = k.error_classes[slot].load(relaxed);
    if (n != 0) t.error_classes[error_class_of_slot(slot)] = n;
  }
  return t;
}

cumulative recorder::take_all() const {
  cumulative c;
  for (std::size_t i = 0; i < txn::kind_count; ++i) {
    c.kinds[i] = copy(all_[i]);
    c.window[i] = copy(kinds_[i]);
    c.outside[i] = copy(outside_kinds_[i]);
  }
  c.deliveries = deferred_ends();
  return c;
}

outcome_counts recorder::deferred_ends() const noexcept {
  outcome_counts c;
  for (std::size_t o = 0; o < outcome_count; ++o) c.n[o] = delivery_ends_[o].load(relaxed);
  return c;
}

snapshot recorder::take() const {
  snapshot s;
  for (std::size_t i = 0; i < txn::kind_count; ++i) s.kinds[i] = copy(kinds_[i]);
  s.outside_window = outside_.load(relaxed);
  s.deliveries_done = deliveries_.load(relaxed);
  s.deliveries_on_time = on_time_.load(relaxed);
  s.skipped_districts = skipped_.load(relaxed);
  s.deliveries_failed = delivery_failed_.load(relaxed);
  s.deliveries_lost = delivery_lost_.load(relaxed);
  s.delivery_completion = delivery_completion_.snapshot();
  input_counts& in = s.inputs;
  in.new_orders = inputs_.new_orders.load(relaxed);
  in.order_lines = inputs_.order_lines.load(relaxed);
  in.remote_lines = inputs_.remote_lines.load(relaxed);
  in.rollbacks_asked = inputs_.rollbacks.load(relaxed);
  in.payments = inputs_.payments.load(relaxed);
  in.remote_payments = inputs_.remote_payments.load(relaxed);
  in.payments_by_name = inputs_.payments_by_name.load(relaxed);
  in.order_statuses = inputs_.order_statuses.load(relaxed);
  in.order_statuses_by_name = inputs_.order_statuses_by_name.load(relaxed);
  in.think_times = inputs_.think_times.load(relaxed);
  in.think_seconds = static_cast<double>(inputs_.think_micros.load(relaxed)) / 1e6;
  in.think_censored = inputs_.think_censored.load(relaxed);
  in.think_relative = static_cast<double>(inputs_.think_relative_micros.load(relaxed)) / 1e6;
  in.think_late_seconds = static_cast<double>(inputs_.think_late_micros.load(relaxed)) / 1e6;
  in.think_late_relative =
      static_cast<double>(inputs_.think_late_relative_micros.load(relaxed)) / 1e6;
  s.window_start = start_;
  s.window_end = clock::time_point(clock::duration(end_.load(relaxed)));
  // The gaps between completions, then the one from the last to the window's end (or to now,
  // while it runs).
  const clock::rep last = last_completion_.load(relaxed);
  const clock::rep until =
      std::min(s.window_end, std::max(start_, clock::now())).time_since_epoch().count();
  clock::rep longest = longest_gap_.load(relaxed);
  clock::rep began = gap_began_.load(relaxed);
  if (until - last > longest) {
    longest = until - last;
    began = last;
  }
  s.longest_stall_seconds = std::chrono::duration<double>(clock::duration(longest)).count();
  s.stall_began_seconds =
      std::chrono::duration<double>(clock::duration(began) - start_.time_since_epoch()).count();
  return s;
}

}  // namespace tpcc::stats
