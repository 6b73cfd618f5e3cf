// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge.cpp: several shards' results into one (see merge.hpp).
#include "report/merge.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "report/merge_ch.hpp"
#include "report/merge_ch_series.hpp"
#include "report/merge_series.hpp"
#include "report/merge_steps.hpp"
#include "report/text.hpp"
#include "stats/inputs.hpp"

namespace tpcc::report {
namespace {

using std::chrono::system_clock;

std::string range(const run::run_result& r) {
  return format("%lld..%lld", static_cast<long long>(r.first_warehouse),
                static_cast<long long>(r.last_warehouse));
}

bool same_constants(const random::nurand_constants& a, const random::nurand_constants& b) {
  return a.c_last == b.c_last && a.c_id == b.c_id && a.ol_i_id == b.ol_i_id;
}

// Why `b` cannot be merged with the first input `a`, or nullopt.
std::optional<std::string> incompatible(const merge_input& a, const merge_input& b) {
  const run::run_result& x = a.loaded.result;
  const run::run_result& y = b.loaded.result;
  std::string why;
  if (x.warehouses != y.warehouses) {
    why = format("%lld warehouses in total, %s has %lld", static_cast<long long>(y.warehouses),
                 a.file.c_str(), static_cast<long long>(x.warehouses));
  } else if (!same_constants(x.load_constants, y.load_constants) ||
             !same_constants(x.run_constants, y.run_constants)) {
    why = std::string("NURand C constants differ from ")
              .append(a.file)
              .append("'s (shards must run against the same load)");
  } else if (x.wait_scale != y.wait_scale) {
    why = format("wait scale %g, %s has %g", y.wait_scale, a.file.c_str(), x.wait_scale);
  } else if (x.paced() != y.paced()) {
    why = std::string(y.paced() ? "ran with --rate, " : "ran without --rate, ")
              .append(a.file)
              .append(y.paced() ? " without" : " with");
  } else if (x.config.interval != y.config.interval) {
    why = std::string("a different interval length than ").append(a.file);
  } else if (auto differ = different_schedule(x.config, y.config)) {
    why = std::move(*differ).append(" than ").append(a.file).append(
        " (only the shards of one schedule merge: the same steps and --knee-p90)");
  } else if (x.config.procedures != y.config.procedures) {
    why = format("mode %s, %s has %s (stored procedures and client-side statements do not mix)",
                 run::mode_name(y.config), a.file.c_str(), run::mode_name(x.config));
  } else if (auto analytic = different_analytic_side(x.ch, y.ch, a.file)) {
    why = std::move(*analytic);
  }
  if (why.empty()) return std::nullopt;
  return std::string(b.file).append(": ").append(why);
}

// Overlapping warehouse ranges, naming both files.
std::optional<std::string> overlapping(const std::vector<merge_input>& inputs) {
  std::vector<const merge_input*> sorted;
  sorted.reserve(inputs.size());
  for (const merge_input& in : inputs) {
    const run::run_result& r = in.loaded.result;
    if (r.last_warehouse >= r.first_warehouse) sorted.push_back(&in);  // an empty shard: none
  }
  std::sort(sorted.begin(), sorted.end(), [](const merge_input* a, const merge_input* b) {
    return a->loaded.result.first_warehouse < b->loaded.result.first_warehouse;
  });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const run::run_result& prev = sorted[i - 1]->loaded.result;
    const run::run_result& next = sorted[i]->loaded.result;
    if (next.first_warehouse <= prev.last_warehouse) {
      return std::string(sorted[i]->file)
          .append(": warehouses ")
          .append(range(next))
          .append(" overlap ")
          .append(sorted[i - 1]->file)
          .append("'s ")
          .append(range(prev));
    }
  }
  return std::nullopt;
}

void add_totals(stats::kind_totals& a, const stats::kind_totals& b) {
  a.outcomes += b.outcomes;
  a.retries += b.retries;
  a.round_trips += b.round_trips;
  a.response.merge(b.response);
  a.queued.merge(b.queued);
  a.service.merge(b.service);
  a.failed_response.merge(b.failed_response);
  for (const auto& [cls, n] : b.error_classes) a.error_classes[cls] += n;
  a.in_flight_at_end += b.in_flight_at_end;
  a.in_flight_over_limit += b.in_flight_over_limit;
  // Shards run different terminals: a group of the merge is the same group of every shard.
  for (std::size_t g = 0; g < stats::terminal_group_count; ++g) {
    a.groups.ended[g] += b.groups.ended[g];
    a.groups.completed[g] += b.groups.completed[g];
    a.groups.over_limit[g] += b.groups.over_limit[g];
    a.groups.failed[g] += b.groups.failed[g];
  }
}

void add_snapshot(stats::snapshot& a, const stats::snapshot& b) {
  for (std::size_t k = 0; k < a.kinds.size(); ++k) add_totals(a.kinds[k], b.kinds[k]);
  a.outside_window += b.outside_window;
  // The longest stall of any shard (each shard saw its own completions).
  if (b.longest_stall_seconds > a.longest_stall_seconds) {
    a.longest_stall_seconds = b.longest_stall_seconds;
    a.stall_began_seconds = b.stall_began_seconds;
  }
  a.deliveries_done += b.deliveries_done;
  a.deliveries_on_time += b.deliveries_on_time;
  a.skipped_districts += b.skipped_districts;
  a.deliveries_failed += b.deliveries_failed;
  a.deliveries_lost += b.deliveries_lost;
  a.delivery_completion.merge(b.delivery_completion);
  stats::add(a.inputs, b.inputs);
}

// The shards' errors, by (type, SQLSTATE, statement): counts added, the earliest first (with its
// message) and the latest last; past the cap, counted as unlisted.
void add_errors(stats::error_list& a, const stats::error_list& b) {
  a.unlisted += b.unlisted;
  for (const stats::error_entry& e : b.entries) {
    auto same = std::find_if(a.entries.begin(), a.entries.end(), [&e](const auto& x) {
      return x.kind == e.kind && x.sqlstate == e.sqlstate && x.statement == e.statement;
    });
    if (same == a.entries.end()) {
      if (a.entries.size() < stats::max_listed_errors) {
        a.entries.push_back(e);
      } else {
        a.unlisted += e.count;
      }
      continue;
    }
    if (e.first < same->first) {
      same->first = e.first;
      same->message = e.message;
      same->outcome = e.outcome;
    }
    same->last = std::max(same->last, e.last);
    same->count += e.count;
  }
  std::sort(a.entries.begin(), a.entries.end(), [](const auto& x, const auto& y) {
    return std::tie(x.kind, x.sqlstate, x.statement) < std::tie(y.kind, y.sqlstate, y.statement);
  });
}

// CPU summed, RSS the largest, client-bound if any shard was (its reason named by file).
void add_client(stats::client_totals& a, const stats::client_totals& b, const std::string& file) {
  a.timer_lateness.merge(b.timer_lateness);
  a.queue_delay.merge(b.queue_delay);
  a.worker_busy.insert(a.worker_busy.end(), b.worker_busy.begin(), b.worker_busy.end());
  a.cpu_seconds += b.cpu_seconds;
  a.measure_cpu_seconds += b.measure_cpu_seconds;
  a.peak_rss_bytes = std::max(a.peak_rss_bytes, b.peak_rss_bytes);
  a.rss_before_terminals = std::max(a.rss_before_terminals, b.rss_before_terminals);
  a.rss_with_terminals = std::max(a.rss_with_terminals, b.rss_with_terminals);
  if (b.client_bound) {
    a.client_bound = true;
    if (!a.client_bound_reason.empty()) a.client_bound_reason += "; ";
    a.client_bound_reason.append(file).append(": ").append(b.client_bound_reason);
  }
}

system_clock::time_point window_start(const run::run_result& r) {
  return r.started + std::chrono::duration_cast<system_clock::duration>(r.config.warmup);
}

system_clock::time_point window_end(const run::run_result& r) {
  return window_start(r) + std::chrono::duration_cast<system_clock::duration>(
                               std::chrono::duration<double>(r.measured_seconds));
}

double seconds_between(system_clock::time_point a, system_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// The client machines add up: hosts listed once each, cores, workers and connections summed;
// the first shard's command line, build and server version stand for all.
void add_origin(run::provenance& a, const run::provenance& b) {
  if (!b.host.empty() && (", " + a.host + ",").find(", " + b.host + ",") == std::string::npos) {
    a.host += a.host.empty() ? b.host : ", " + b.host;
  }
  a.cores += b.cores;
  a.workers += b.workers;
  a.connections += b.connections;
}

// A check run after any shard is of the whole database: known when one of them knows it, and
// failing every condition that any of them saw fail.
void add_consistency(run::consistency_status& a, const run::consistency_status& b) {
  if (!b.checked) return;
  a.checked = true;
  a.conditions = std::max(a.conditions, b.conditions);
  for (const std::string& clause : b.failing) {
    if (std::find(a.failing.begin(), a.failing.end(), clause) == a.failing.end()) {
      a.failing.push_back(clause);
    }
  }
}

// --rate: each shard offered its own rate, so the merge offered their sum; the backlogs add,
// the lags are the worst shard's.
void add_pacing(run::run_result& a, const run::run_result& b) {
  a.config.rate_tpm += b.config.rate_tpm;
  for (std::size_t i = 0; i < a.config.schedule.size(); ++i) {  // the same steps: checked
    a.config.schedule[i].rate_tpm += b.config.schedule[i].rate_tpm;
  }
  if (!a.pacing || !b.pacing) {
    a.pacing.reset();  // a shard's figures are missing: none rather than a part
    return;
  }
  a.pacing->add(*b.pacing);
}

// Adds shard `b` (not the first) into `m`.
void add_shard(merged_result& m, const merge_input& b) {
  run::run_result& a = m.result;
  const run::run_result& r = b.loaded.result;
  add_snapshot(a.results, r.results);
  add_client(a.client, r.client, b.file);
  add_errors(a.errors, r.errors);
  add_pacing(a, r);
  add_ch(a.ch, r.ch);
  a.config.analytic_streams = a.ch.streams;
  a.terminals += r.terminals;
  a.first_warehouse = std::min(a.first_warehouse, r.first_warehouse);
  a.last_warehouse = std::max(a.last_warehouse, r.last_warehouse);
  a.interrupted = a.interrupted || r.interrupted;
  a.drained = a.drained && r.drained;
  if (!r.fatal.empty()) {
    if (!a.fatal.empty()) a.fatal += "; ";
    a.fatal.append(b.file).append(": ").append(r.fatal);
  }
  add_origin(a.origin, r.origin);
  add_consistency(a.consistency, r.consistency);
  if (b.loaded.context.target != m.context.target) {
    m.notes.push_back(std::string(b.file).append(" ran against ").append(b.loaded.context.target));
  }
}

// The analytic series on the same axis (merge_ch_series.hpp), or a note saying why none.
void merge_analytic_series(merged_result& m, const std::vector<shard_ch_series>& shards,
                           double width) {
  run::ch_totals& ch = m.result.ch;
  if (!ch.ran()) return;
  merged_ch_series merged = merge_ch_series(shards, width);
  ch.series = std::move(merged.series);
  ch.series_p90_max_of_shards = shards.size() > 1;
  for (const shard_ch_series& s : shards) {
    ch.series_p90_max_of_shards = ch.series_p90_max_of_shards || s.ch->series_p90_max_of_shards;
  }
  if (!merged.why_not.empty()) {
    m.notes.push_back("the analytic series is left out: " + merged.why_not);
  } else if (ch.series_p90_max_of_shards) {
    m.notes.push_back(
        "the analytic series' p90 per interval is the largest of the shards' (an upper bound)");
  }
}

// The measurement interval: the earliest start of measurement to the latest end; the series
// on one wall-clock axis; the wall-clock start and end.
void align(merged_result& m, const std::vector<merge_input>& inputs) {
  auto first = window_start(inputs[0].loaded.result);
  auto last = window_end(inputs[0].loaded.result);
  auto started = inputs[0].loaded.result.started;
  auto ended = inputs[0].loaded.result.ended;
  for (const merge_input& in : inputs) {
    const run::run_result& r = in.loaded.result;
    first = std::min(first, window_start(r));
    last = std::max(last, window_end(r));
    started = std::min(started, r.started);
    ended = std::max(ended, r.ended);
  }
  std::vector<shard_series> shards;
  std::vector<shard_ch_series> analytic;
  std::vector<shard_steps> steps;
  double skew = 0;
  for (const merge_input& in : inputs) {
    const run::run_result& r = in.loaded.result;
    shards.push_back({&r.series, seconds_between(started, r.started)});
    analytic.push_back({&in.file, &r.ch, seconds_between(started, r.started)});
    steps.push_back({&r, seconds_between(started, r.started)});
    skew = std::max(skew, seconds_between(first, window_start(r)));
  }
  run::run_result& out = m.result;
  const double width = std::chrono::duration<double>(out.config.interval).count();
  out.series = merge_series(shards, width);
  merge_analytic_series(m, analytic, width);
  out.steps = merge_steps(steps, m.notes);
  out.measured_seconds = std::max(0.0, seconds_between(first, last));
  out.started = started;
  out.ended = ended;
  if (skew > 1.0) {
    m.notes.push_back(format("the shards' measurement intervals start up to %.1f s apart", skew));
  }
}

}  // namespace

void add_sparse(stats::sparse_histogram& a, const stats::sparse_histogram& b) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  out.reserve(a.buckets.size() + b.buckets.size());
  auto x = a.buckets.begin();
  auto y = b.buckets.begin();
  while (x != a.buckets.end() || y != b.buckets.end()) {
    if (y == b.buckets.end() || (x != a.buckets.end() && x->first < y->first)) {
      out.push_back(*x++);
    } else if (x == a.buckets.end() || y->first < x->first) {
      out.push_back(*y++);
    } else {
      out.emplace_back(x->first, x->second + y->second);
      ++x;
      ++y;
    }
  }
  a.buckets = std::move(out);
}

std::variant<merged_result, std::string> merge_results(const std::vector<merge_input>& inputs) {
  if (inputs.empty()) return std::string("merge needs at least one result file");
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    if (auto why = incompatible(inputs[0], inputs[i])) return *why;
  }
  if (auto why = overlapping(inputs)) return *why;
  merged_result m;
  m.result = inputs[0].loaded.result;
  m.context = inputs[0].loaded.context;
  m.notes.push_back(
      std::string("merged ").append(std::to_string(inputs.size())).append(" results"));
  for (std::size_t i = 1; i < inputs.size(); ++i) add_shard(m, inputs[i]);
  for (const merge_input& in : inputs) {
    m.notes.push_back(
        std::string("  ").append(in.file).append(": warehouses ").append(range(in.loaded.result)));
  }
  align(m, inputs);
  std::int64_t covered = 0;
  double bytes = 0;
  for (const merge_input& in : inputs) {
    const run::run_result& r = in.loaded.result;
    covered += r.last_warehouse - r.first_warehouse + 1;
    bytes += r.client.bytes_per_terminal * static_cast<double>(r.terminals);
  }
  const run::run_result& r = m.result;
  m.result.client.bytes_per_terminal =
      r.terminals > 0 ? bytes / static_cast<double>(r.terminals) : 0;
  m.result.config.shard = {0, 1};
  m.result.server = {};  // each input's own: the shards read one database, adding would repeat it
  m.result.server.not_collected = "not merged (each input file has its own server figures)";
  if (covered != r.warehouses || r.first_warehouse != 1) {
    m.notes.push_back(format("the results cover warehouses %s of %lld only", range(r).c_str(),
                             static_cast<long long>(r.warehouses)));
  }
  return m;
}

}  // namespace tpcc::report
