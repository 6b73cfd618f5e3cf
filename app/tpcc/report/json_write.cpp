// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_write.cpp: a result to JSON (see json.hpp).
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "report/ch_report.hpp"
#include "report/json.hpp"
#include "report/json_detail.hpp"
#include "report/json_endpoints.hpp"
#include "report/json_pace.hpp"
#include "report/json_server.hpp"
#include "report/json_steps.hpp"
#include "report/rate.hpp"
#include "report/servers.hpp"
#include "report/summary.hpp"
#include "report/verdict.hpp"
#include "stats/inputs.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

using nlohmann::json;

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

json buckets(const stats::sparse_histogram& s) {
  json out = json::array();
  for (const auto& [index, n] : s.buckets)
    out.push_back({index, stats::bucket::upper_edge(index), n});
  return out;
}

json cumulative(const stats::histogram& h) {
  return {{"count", h.count()},
          {"max_us", h.max()},
          {"mean_us", h.mean()},
          {"p50_us", h.percentile(0.5)},
          {"p90_us", h.percentile(0.9)},
          {"p99_us", h.percentile(0.99)},
          {"p99_9_us", h.percentile(0.999)},
          {"p99_99_us", h.percentile(0.9999)},
          {"buckets", buckets(stats::sparse_histogram::of(h))}};
}

json interval(const stats::sparse_histogram& s) {
  return {{"count", s.count()}, {"buckets", buckets(s)}};
}

json layout() {
  return {{"unit", "microseconds"},
          {"linear_below", stats::bucket::linear},
          {"sub_buckets_per_power_of_two", 1U << stats::bucket::sub_bits},
          {"max_exponent", stats::bucket::max_exponent},
          {"bucket_count", stats::bucket::count},
          {"bucket_entry", "[index, upper_edge_us, count]"},
          {"rule",
           "index i < linear_below counts the value i; above, values in [2^e, 2^(e+1)) are "
           "split into sub_buckets_per_power_of_two equal buckets; upper_edge_us is the largest "
           "value a bucket counts; a percentile is reported as its bucket's upper edge"}};
}

json config(const run::run_config& c) {
  return {{"warehouses", c.warehouses},
          {"terminals_per_warehouse", c.terminals_per_warehouse},
          {"warmup_seconds", seconds(c.warmup)},
          {"measure_seconds", seconds(c.measure)},
          {"drain_seconds", seconds(c.drain)},
          {"wait_scale", c.wait_scale},
          {"rate_tpm", c.rate_tpm},
          {"isolation", isolation_name(c.isolation)},
          {"mode", run::mode_name(c)},
          {"deliverers", c.deliverers},
          {"seed", c.seed},
          {"shard", {{"index", c.shard.index}, {"count", c.shard.count}}},
          {"start_at", c.start_at ? json(detail::iso_utc(*c.start_at)) : json(nullptr)},
          {"interval_seconds", seconds(c.interval)},
          {"client_lag_limit_seconds", seconds(c.client_lag_limit)},
          {"retry",
           {{"max_attempts", c.retry.max_attempts},
            {"first_backoff_ms", c.retry.first_backoff.count()},
            {"max_backoff_ms", c.retry.max_backoff.count()}}}};
}

json origin(const run::provenance& p) {
  return {{"command_line", p.command_line},
          {"version", p.version},
          {"commit", p.commit},
          {"server_version", p.server_version},
          {"host", p.host},
          {"cores", p.cores},
          {"workers", p.workers},
          {"connections", p.connections}};
}

// null when no check ran with this result (a bare `run`).
json consistency(const run::consistency_status& c) {
  if (!c.checked) return nullptr;
  return {{"passed", c.passed()}, {"conditions", c.conditions}, {"failing", c.failing}};
}

json constants(const random::nurand_constants& c) {
  return {{"c_last", c.c_last}, {"c_id", c.c_id}, {"ol_i_id", c.ol_i_id}};
}

// One field per outcome (stats::outcome_table), then the completed and failed totals.
void add_outcomes(json& into, const stats::outcome_counts& o) {
  for (const stats::outcome_info& i : stats::outcome_table) into[std::string(i.key)] = o[i.outcome];
  into["completed"] = o.completed();
  into["failures"] = o.failures();
}

json kind_json(txn::kind k, const stats::kind_totals& t) {
  json out = {{"type", txn::name(k)},
              {"retries", t.retries},
              {"round_trips", t.round_trips},
              {"round_trips_per_transaction", round_trips_per_transaction(t)},
              {"errors_by_sqlstate_class", t.error_classes},
              {"histograms",
               {{"response", cumulative(t.response)},
                {"queued", cumulative(t.queued)},
                {"service", cumulative(t.service)},
                {"failed", cumulative(t.failed_response)}}},
              {"terminal_groups",
               {{"ended", t.groups.ended},
                {"completed", t.groups.completed},
                {"over_limit", t.groups.over_limit},
                {"failed", t.groups.failed}}},
              {"in_flight_at_end", t.in_flight_at_end},
              {"in_flight_over_limit", t.in_flight_over_limit}};
  add_outcomes(out, t.outcomes);
  return out;
}

// One field per counter (stats::input_counter_table), then the think time's sum.
json inputs(const stats::input_counts& in) {
  json out = json::object();
  for (const stats::input_counter& c : stats::input_counter_table) {
    out[std::string(c.key)] = in.*c.field;
  }
  out[std::string(stats::think_seconds_key)] = in.think_seconds;
  out[std::string(stats::think_censored_key)] = in.think_censored;
  out[std::string(stats::think_relative_key)] = in.think_relative;
  out[std::string(stats::think_late_seconds_key)] = in.think_late_seconds;
  out[std::string(stats::think_late_relative_key)] = in.think_late_relative;
  return out;
}

json deliveries(const stats::snapshot& s) {
  return {{"completed", s.deliveries_done},
          {"on_time", s.deliveries_on_time},
          {"failed", s.deliveries_failed},
          {"lost", s.deliveries_lost},
          {"skipped_districts", s.skipped_districts},
          {"completion", cumulative(s.delivery_completion)}};
}

json client(const stats::client_totals& c) {
  return {{"cpu_seconds", c.cpu_seconds},
          {"measure_cpu_seconds", c.measure_cpu_seconds},
          {"peak_rss_bytes", c.peak_rss_bytes},
          {"rss_before_terminals", c.rss_before_terminals},
          {"rss_with_terminals", c.rss_with_terminals},
          {"bytes_per_terminal", c.bytes_per_terminal},
          {"client_bound", c.client_bound},
          {"client_bound_reason", c.client_bound_reason},
          {"worker_busy", c.worker_busy},
          {"timer_lateness", cumulative(c.timer_lateness)},
          {"queue_delay", cumulative(c.queue_delay)}};
}

json client_sample(const stats::client_sample& c) {
  json workers = json::array();
  for (const stats::worker_sample& w : c.workers) {
    workers.push_back({{"busy", w.busy},
                       {"resumed_per_second", w.resumed_per_second},
                       {"lateness_max_us", w.lateness_max_us},
                       {"queue_delay_max_us", w.queue_delay_max_us}});
  }
  return {{"workers", workers},
          {"lateness_p99_us", c.lateness_p99_us},
          {"queue_delay_p99_us", c.queue_delay_p99_us},
          {"pool_size", c.pool_size},
          {"pool_in_use", c.pool_in_use},
          {"pool_waiting", c.pool_waiting},
          {"deliveries_queued", c.deliveries_queued},
          {"cpu_seconds", c.cpu_seconds},
          {"rss_bytes", c.rss_bytes}};
}

json sample(const stats::interval_sample& s) {
  json kinds = json::array();
  for (const txn::kind k : txn::all_kinds) {
    const stats::interval_kind& t = s.kinds[txn::index(k)];
    json entry = {{"type", txn::name(k)},
                  {"retries", t.retries},
                  {"histograms",
                   {{"response", interval(t.response)},
                    {"queued", interval(t.queued)},
                    {"service", interval(t.service)}}}};
    add_outcomes(entry, t.outcomes);
    kinds.push_back(std::move(entry));
  }
  return {{"start_seconds", s.start_seconds},
          {"end_seconds", s.end_seconds},
          {"phase", stats::to_string(s.in)},
          {"transactions", kinds},
          {"client", client_sample(s.client)}};
}

json verdict_json(const verdict& v) {
  json items = json::array();
  for (const verdict_item& i : v.items) {
    const char* judged = i.pass ? "pass" : (i.inconclusive ? "inconclusive" : "fail");
    items.push_back({{"name", i.name},
                     {"clause", i.clause},
                     {"measured", i.measured},
                     {"required", i.required},
                     {"pass", i.pass},
                     {"judgement", i.informational ? "informational" : judged},
                     {"note", i.note},
                     {"informational", i.informational}});
  }
  return {{"pass", v.pass},         {"inconclusive", v.inconclusive}, {"result", v.word()},
          {"failing", v.failing()}, {"undecided", v.undecided()},     {"items", items}};
}

// Every distinct error: type, SQLSTATE, what the driver saw, statement, first message, count,
// first and last time; then how many errors past the cap were only counted.
json errors(const stats::error_list& list) {
  json entries = json::array();
  for (const stats::error_entry& e : list.entries) {
    entries.push_back({{"type", txn::name(e.kind)},
                       {"sqlstate", e.sqlstate},
                       {"outcome", e.outcome},
                       {"statement", e.statement},
                       {"message", e.message},
                       {"count", e.count},
                       {"first", detail::iso_utc(e.first)},
                       {"last", detail::iso_utc(e.last)}});
  }
  return {{"listed", entries}, {"unlisted", list.unlisted}};
}

json figures(const run::run_result& r) {
  const stats::snapshot& s = r.results;
  json kinds = json::array();
  for (const txn::kind k : txn::all_kinds) kinds.push_back(kind_json(k, s.kinds[txn::index(k)]));
  json series = json::array();
  for (const stats::interval_sample& i : r.series) series.push_back(sample(i));
  return {{"warehouses", r.warehouses},
          {"terminals", r.terminals},
          {"first_warehouse", r.first_warehouse},
          {"last_warehouse", r.last_warehouse},
          {"wait_scale", r.wait_scale},
          {"measured_seconds", r.measured_seconds},
          {"interrupted", r.interrupted},
          {"drained", r.drained},
          {"fatal", r.fatal},
          {"tpmc", tpmc(r)},
          {"tpm_total", tpm_total(r)},
          {"efficiency", efficiency(r)},
          {"transactions", kinds},
          {"outside_window", s.outside_window},
          {"errors", errors(r.errors)},
          {"longest_stall",
           {{"seconds", s.longest_stall_seconds}, {"began_after_seconds", s.stall_began_seconds}}},
          {"deferred_delivery", deliveries(s)},
          {"inputs", inputs(s.inputs)},
          {"client", client(r.client)},
          {"series", series}};
}

// --rate: offered against achieved, and the backlog (report/rate.hpp).
json rate(const run::run_result& r, const stats::pace_totals& p) {
  json out = detail::pace_json(p);
  out["achieved_tpm"] = achieved_tpm(r);
  return out;
}

// Each query's latency histogram beside its figures (what `merge` reads back and adds).
void add_ch_latency(json& ch, const run::ch_totals& c) {
  for (std::size_t i = 0; i < c.queries.size(); ++i) {
    ch["queries"][i]["latency"] = cumulative(c.queries[i].latency);
  }
}

json document(const run::run_result& r, const result_context& context) {
  json doc = {
      {"format", "shoal-tpcc-result"},
      {"versions", {{"shoal_tpcc", context.version}, {"result_format", json_format_version}}},
      {"target", context.target},
      {"capacity_mode", is_simulated(context.target)},
      {"tpc_c_waits", r.tpc_c_waits()},
      {"started", detail::iso_utc(r.started)},
      {"ended", detail::iso_utc(r.ended)},
      {"config", config(r.config)},
      {"provenance", origin(r.origin)},
      {"consistency_check", consistency(r.consistency)},
      {"nurand",
       {{"load", constants(r.load_constants)},
        {"run", constants(r.run_constants)},
        {"c_last_delta", std::llabs(r.run_constants.c_last - r.load_constants.c_last)}}},
      {"histogram_layout", layout()},
      {"verdict", verdict_json(evaluate(r, context.target))}};
  doc.update(figures(r));
  doc["server"] = detail::server_json(r.server, server_endpoints(r, 0));
  if (r.pacing) doc["rate"] = rate(r, *r.pacing);
  doc["endpoints"] = detail::endpoints_json(r);
  detail::add_steps_json(doc, r);
  if (!r.more_servers.empty()) doc["more_servers"] = detail::more_servers_json(r);
  doc["benchmark"] = benchmark_name(r);
  doc["ch"] = ch_json(r);  // null in a TPC-C run
  if (r.ch.ran()) add_ch_latency(doc["ch"], r.ch);
  return doc;
}

}  // namespace

std::string to_json_text(const run::run_result& r, const result_context& context) {
  return document(r, context).dump(1) + "\n";
}

std::optional<std::string> write_json(const std::string& file, const run::run_result& r,
                                      const result_context& context) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return std::string("cannot write ").append(file);
  out << to_json_text(r, context);
  out.close();
  if (!out) return std::string("writing ").append(file).append(" failed (disk full?)");
  return std::nullopt;
}

}  // namespace tpcc::report
