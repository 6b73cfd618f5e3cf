// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_read.cpp: a result file back to a run_result (see json.hpp).
//
// Each accessor names the field it reads by its path ("transactions[2].committed"); a missing
// or mistyped field throws malformed (internal to this file), which parse_json turns into the
// error value naming the file and the field. Numbers are range-checked where they are read
// (finite; seconds and settings bounded so that merge's clock arithmetic cannot overflow); an
// optional field, when present, must have its type like any other.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/json_detail.hpp"
#include "stats/inputs.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

using nlohmann::json;

struct malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The largest figure a result may hold where a number of seconds or an integer setting is
// expected: about three years, a billion warehouses. Beyond them the clock arithmetic of merge
// would overflow; no run comes near them.
constexpr double max_seconds = 1e8;
constexpr std::int64_t max_integer = 1'000'000'000;

// `path` as one line: a key with a control character (a newline) shown as '?'.
std::string printable(std::string path) {
  for (char& c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return path;
}

// A JSON value and where it is in the document.
struct at {
  const json& value;
  std::string path;

  [[noreturn]] void fail(std::string_view what) const {
    throw malformed(std::string("field ").append(printable(path)).append(": ").append(what));
  }
  [[nodiscard]] bool has(const std::string& key) const {
    return value.is_object() && value.contains(key);
  }
  [[nodiscard]] at operator[](const std::string& key) const {
    if (!value.is_object()) fail("expected an object");
    const auto it = value.find(key);
    const std::string where = path.empty() ? key : std::string(path).append(".").append(key);
    if (it == value.end()) at{value, where}.fail("missing");
    return at{*it, where};
  }
  [[nodiscard]] at operator[](std::size_t i) const {
    if (!value.is_array() || i >= value.size()) fail("expected an array with more entries");
    return at{value[i], std::string(path).append("[").append(std::to_string(i)).append("]")};
  }
  [[nodiscard]] const json& array() const {
    if (!value.is_array()) fail("expected an array");
    return value;
  }
  [[nodiscard]] std::uint64_t count() const {
    if (!value.is_number_unsigned() &&
        !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
      fail("expected a non-negative integer");
    return value.get<std::uint64_t>();
  }
  // An integer from 0 to max_integer.
  [[nodiscard]] std::int64_t integer() const {
    if (!value.is_number_integer() ||
        (!value.is_number_unsigned() && value.get<std::int64_t>() < 0) ||
        value.get<std::uint64_t>() > static_cast<std::uint64_t>(max_integer))
      fail("expected an integer from 0 to 1000000000");
    return value.get<std::int64_t>();
  }
  // A finite number.
  [[nodiscard]] double number() const {
    if (!value.is_number() || !std::isfinite(value.get<double>())) fail("expected a number");
    return value.get<double>();
  }
  // A number from 0 to max_seconds (seconds, or a factor).
  [[nodiscard]] double bounded() const {
    const double x = value.is_number() ? value.get<double>() : -1;
    if (!(x >= 0 && x <= max_seconds)) fail("expected a number from 0 to 1e8");
    return x;
  }
  [[nodiscard]] bool boolean() const {
    if (!value.is_boolean()) fail("expected true or false");
    return value.get<bool>();
  }
  [[nodiscard]] std::string text() const {
    if (!value.is_string()) fail("expected a string");
    return value.get<std::string>();
  }
  [[nodiscard]] std::chrono::system_clock::time_point time() const {
    const auto t = detail::parse_iso_utc(text());
    if (!t)
      fail("expected an ISO 8601 UTC time from 1970 to 2200 such as 2024-05-01T12:00:00.000Z");
    return *t;
  }
};

std::chrono::nanoseconds duration(const at& a) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::duration<double>(a.bounded()));
}

// The [index, upper_edge_us, count] entries, checked against this build's layout.
stats::sparse_histogram sparse(const at& a) {
  stats::sparse_histogram s;
  const json& entries = a["buckets"].array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const at e = a["buckets"][i];
    if (!e.value.is_array() || e.value.size() != 3)
      e.fail("expected [index, upper_edge_us, count]");
    const std::uint64_t index = e[std::size_t{0}].count();
    if (index >= stats::bucket::count) e.fail("bucket index beyond the layout");
    if (e[std::size_t{1}].count() != stats::bucket::upper_edge(index))
      e.fail("upper edge does not match the layout");
    if (!s.buckets.empty() && index <= s.buckets.back().first) e.fail("bucket indexes must ascend");
    s.buckets.emplace_back(static_cast<std::uint32_t>(index), e[std::size_t{2}].count());
  }
  if (s.count() != a["count"].count()) a["count"].fail("does not equal the sum of the buckets");
  return s;
}

// Each bucket at its upper edge, the highest one at the recorded max (which must lie in it).
stats::histogram cumulative(const at& a) {
  const stats::sparse_histogram s = sparse(a);
  const std::uint64_t max = a["max_us"].count();
  stats::histogram h;
  for (std::size_t i = 0; i < s.buckets.size(); ++i) {
    const auto [index, n] = s.buckets[i];
    const bool top = i + 1 == s.buckets.size();
    if (top && stats::bucket::index_of(max) != index) a["max_us"].fail("not in the highest bucket");
    h.record(top ? max : stats::bucket::upper_edge(index), n);
  }
  return h;
}

void check_layout(const at& a) {
  if (a["linear_below"].count() != stats::bucket::linear ||
      a["sub_buckets_per_power_of_two"].count() != (1U << stats::bucket::sub_bits) ||
      a["max_exponent"].count() != stats::bucket::max_exponent) {
    a.fail("a different bucket layout than this build's");
  }
}

// Older files: none (client-side statements).
bool procedures_mode(const at& config) {
  if (!config.has("mode")) return false;
  const at a = config["mode"];
  const std::string mode = a.text();
  if (mode == "statements" || mode == "procedures") return mode == "procedures";
  a.fail("expected statements or procedures");
}

// Older files: none (read committed).
driver::isolation isolation(const at& config) {
  if (!config.has("isolation")) return driver::isolation::read_committed;
  const at a = config["isolation"];
  const std::string level = a.text();
  if (level == "read-committed") return driver::isolation::read_committed;
  if (level == "repeatable-read") return driver::isolation::repeatable_read;
  if (level == "serializable") return driver::isolation::serializable;
  a.fail("expected read-committed, repeatable-read or serializable");
}

// A --schedule step's offered rate: as the command line takes it, 0 < rate <= 10^9.
double read_step_rate(const at& a) {
  const double x = a.number();
  if (!(x > 0 && x <= 1e9)) a.fail("expected a rate from 0 to 1e9 transactions per minute");
  return x;
}

// config.schedule (--schedule, --sweep); older files and unscheduled runs: none.
std::vector<run::rate_step> read_schedule(const at& config) {
  std::vector<run::rate_step> out;
  if (!config.has("schedule")) return out;
  const at list = config["schedule"];
  for (std::size_t i = 0; i < list.array().size(); ++i) {
    out.push_back({read_step_rate(list[i]["rate_tpm"]), duration(list[i]["duration_seconds"])});
    // CH-benCHmark's streams=N; absent (older files, no streams): resolved in read_ch.
    out.back().analytic_streams =
        list[i].has("analytic_streams") ? list[i]["analytic_streams"].integer() : -1;
  }
  return out;
}

run::run_config config(const at& a) {
  run::run_config c;
  c.schedule = read_schedule(a);
  if (a.has("knee_p90_seconds")) c.knee_p90 = duration(a["knee_p90_seconds"]);
  c.warehouses = a["warehouses"].integer();
  if (a.has("terminals_per_warehouse"))  // older files: none (the spec's 10)
    c.terminals_per_warehouse = a["terminals_per_warehouse"].integer();
  c.warmup = duration(a["warmup_seconds"]);
  c.measure = duration(a["measure_seconds"]);
  c.drain = duration(a["drain_seconds"]);
  c.wait_scale = a["wait_scale"].bounded();
  if (a.has("rate_tpm")) c.rate_tpm = a["rate_tpm"].number();  // older files: none
  c.isolation = isolation(a);
  c.procedures = procedures_mode(a);
  c.deliverers = a["deliverers"].count();
  c.seed = a["seed"].count();
  c.shard.index = a["shard"]["index"].integer();
  c.shard.count = a["shard"]["count"].integer();
  if (!a["start_at"].value.is_null()) c.start_at = a["start_at"].time();
  c.interval = duration(a["interval_seconds"]);
  c.client_lag_limit = duration(a["client_lag_limit_seconds"]);
  c.retry.max_attempts = static_cast<int>(a["retry"]["max_attempts"].integer());
  c.retry.first_backoff = std::chrono::milliseconds(a["retry"]["first_backoff_ms"].integer());
  c.retry.max_backoff = std::chrono::milliseconds(a["retry"]["max_backoff_ms"].integer());
  return c;
}

// Files written before results carried their provenance have none: left empty; so is each
// field a file lacks.
run::provenance origin(const at& doc) {
  run::provenance p;
  if (!doc.has("provenance") || !doc["provenance"].value.is_object()) return p;
  const at o = doc["provenance"];
  const auto text = [&o](const char* key) { return o.has(key) ? o[key].text() : std::string(); };
  const auto count = [&o](const char* key) {
    return o.has(key) ? static_cast<std::size_t>(o[key].integer()) : std::size_t{0};
  };
  p.command_line = text("command_line");
  p.version = text("version");
  p.commit = text("commit");
  p.server_version = text("server_version");
  p.host = text("host");
  p.cores = static_cast<unsigned>(count("cores"));
  p.workers = count("workers");
  p.connections = count("connections");
  return p;
}

// Absent (older files) or null: no check ran with this result.
run::consistency_status consistency(const at& doc) {
  run::consistency_status c;
  if (!doc.has("consistency_check") || doc["consistency_check"].value.is_null()) return c;
  const at o = doc["consistency_check"];
  c.checked = true;
  c.conditions = static_cast<std::size_t>(o["conditions"].integer());
  const at failing = o["failing"];
  for (std::size_t i = 0; i < failing.array().size(); ++i) c.failing.push_back(failing[i].text());
  return c;
}

random::nurand_constants constants(const at& a) {
  return {a["c_last"].integer(), a["c_id"].integer(), a["ol_i_id"].integer()};
}

// The array of five, one per type in txn::all_kinds order, each named.
template <class Read>
void per_kind(const at& a, Read read) {
  if (a.array().size() != txn::kind_count) a.fail("expected one entry per transaction type (5)");
  for (const txn::kind k : txn::all_kinds) {
    const at e = a[txn::index(k)];
    if (e["type"].text() != txn::name(k))
      e["type"].fail(std::string("expected ").append(txn::name(k)));
    read(k, e);
  }
}

// One count per outcome, each under its key (stats::outcome_table).
stats::outcome_counts outcomes(const at& e) {
  stats::outcome_counts o;
  for (const stats::outcome_info& i : stats::outcome_table) {
    o[i.outcome] = e[std::string(i.key)].count();
  }
  return o;
}

// Failures by SQLSTATE class: an object of counts.
stats::error_class_counts error_classes(const at& a) {
  if (!a.value.is_object()) a.fail("expected an object of counts by SQLSTATE class");
  stats::error_class_counts out;
  for (const auto& [cls, n] : a.value.items()) out[cls] = a[cls].count();
  return out;
}

// One count per terminal group.
void group_array(const at& a, stats::group_counts::counts& out) {
  if (a.array().size() != out.size()) a.fail("expected one count per terminal group");
  for (std::size_t g = 0; g < out.size(); ++g) out[g] = a[g].count();
}

// The outcomes per terminal group; absent from results written before they were counted (the
// verdict then judges with the binomial intervals alone).
stats::group_counts groups(const at& e) {
  stats::group_counts out;
  if (!e.value.contains("terminal_groups")) return out;
  const at a = e["terminal_groups"];
  group_array(a["ended"], out.ended);
  group_array(a["completed"], out.completed);
  group_array(a["over_limit"], out.over_limit);
  group_array(a["failed"], out.failed);
  return out;
}

stats::kind_totals kind_totals(const at& e) {
  stats::kind_totals t;
  t.outcomes = outcomes(e);
  t.error_classes = error_classes(e["errors_by_sqlstate_class"]);
  t.failed_response = cumulative(e["histograms"]["failed"]);
  t.retries = e["retries"].count();
  t.round_trips = e["round_trips"].count();
  t.response = cumulative(e["histograms"]["response"]);
  t.queued = cumulative(e["histograms"]["queued"]);
  t.service = cumulative(e["histograms"]["service"]);
  t.groups = groups(e);
  if (e.value.contains("in_flight_at_end")) {  // older results: none
    t.in_flight_at_end = e["in_flight_at_end"].count();
    t.in_flight_over_limit = e["in_flight_over_limit"].count();
  }
  return t;
}

stats::input_counts inputs(const at& a) {
  stats::input_counts in;
  for (const stats::input_counter& c : stats::input_counter_table) {
    in.*c.field = a[std::string(c.key)].count();
  }
  in.think_seconds = a[std::string(stats::think_seconds_key)].number();
  // Written since the thinks are counted by start; older results judge by their mean alone.
  if (a.value.contains(stats::think_censored_key)) {
    in.think_censored = a[std::string(stats::think_censored_key)].count();
    in.think_relative = a[std::string(stats::think_relative_key)].number();
  }
  // Written since each think's lateness is counted; older results count none.
  if (a.value.contains(stats::think_late_seconds_key)) {
    in.think_late_seconds = a[std::string(stats::think_late_seconds_key)].number();
    in.think_late_relative = a[std::string(stats::think_late_relative_key)].number();
  }
  return in;
}

void deliveries(const at& a, stats::snapshot& s) {
  s.deliveries_done = a["completed"].count();
  s.deliveries_on_time = a["on_time"].count();
  s.deliveries_failed = a["failed"].count();
  // Written since a lost deferred Delivery is counted apart; older results count none.
  if (a.value.contains("lost")) s.deliveries_lost = a["lost"].count();
  s.skipped_districts = a["skipped_districts"].count();
  s.delivery_completion = cumulative(a["completion"]);
}

stats::client_totals client(const at& a) {
  stats::client_totals c;
  c.cpu_seconds = a["cpu_seconds"].bounded();
  c.measure_cpu_seconds = a["measure_cpu_seconds"].bounded();
  c.peak_rss_bytes = a["peak_rss_bytes"].count();
  c.rss_before_terminals = a["rss_before_terminals"].count();
  c.rss_with_terminals = a["rss_with_terminals"].count();
  c.bytes_per_terminal = a["bytes_per_terminal"].number();
  c.client_bound = a["client_bound"].boolean();
  c.client_bound_reason = a["client_bound_reason"].text();
  for (std::size_t i = 0; i < a["worker_busy"].array().size(); ++i) {
    c.worker_busy.push_back(a["worker_busy"][i].number());
  }
  c.timer_lateness = cumulative(a["timer_lateness"]);
  c.queue_delay = cumulative(a["queue_delay"]);
  return c;
}

stats::client_sample client_sample(const at& a) {
  stats::client_sample c;
  for (std::size_t i = 0; i < a["workers"].array().size(); ++i) {
    const at w = a["workers"][i];
    c.workers.push_back({w["busy"].number(), w["resumed_per_second"].number(),
                         w["lateness_max_us"].count(), w["queue_delay_max_us"].count()});
  }
  c.lateness_p99_us = a["lateness_p99_us"].count();
  c.queue_delay_p99_us = a["queue_delay_p99_us"].count();
  c.pool_size = a["pool_size"].count();
  c.pool_in_use = a["pool_in_use"].count();
  c.pool_waiting = a["pool_waiting"].count();
  if (a.has("deliveries_queued"))  // older files: none
    c.deliveries_queued = static_cast<std::size_t>(a["deliveries_queued"].count());
  c.cpu_seconds = a["cpu_seconds"].bounded();
  c.rss_bytes = a["rss_bytes"].count();
  return c;
}

stats::interval_sample sample(const at& a) {
  stats::interval_sample s;
  s.start_seconds = a["start_seconds"].bounded();
  s.end_seconds = a["end_seconds"].bounded();
  const auto p = detail::parse_phase(a["phase"].text());
  if (!p) a["phase"].fail("expected starting, warm-up, measuring, draining or done");
  s.in = *p;
  per_kind(a["transactions"], [&s](txn::kind k, const at& e) {
    stats::interval_kind& t = s.kinds[txn::index(k)];
    t.outcomes = outcomes(e);
    t.retries = e["retries"].count();
    t.response = sparse(e["histograms"]["response"]);
    t.queued = sparse(e["histograms"]["queued"]);
    t.service = sparse(e["histograms"]["service"]);
  });
  s.client = client_sample(a["client"]);
  return s;
}

txn::kind kind_named(const at& a) {
  const std::string name = a.text();
  for (const txn::kind k : txn::all_kinds) {
    if (txn::name(k) == name) return k;
  }
  a.fail("expected a transaction type such as New-Order");
}

// The distinct errors (absent from results written before they were listed).
stats::error_list errors(const at& doc) {
  stats::error_list out;
  if (!doc.value.contains("errors")) return out;
  const at e = doc["errors"];
  const at listed = e["listed"];
  for (std::size_t i = 0; i < listed.array().size(); ++i) {
    const at x = listed[i];
    stats::error_entry entry;
    entry.kind = kind_named(x["type"]);
    entry.sqlstate = x["sqlstate"].text();
    entry.outcome = x["outcome"].text();
    entry.statement = x["statement"].text();
    entry.message = x["message"].text();
    entry.count = x["count"].count();
    entry.first = x["first"].time();
    entry.last = x["last"].time();
    out.entries.push_back(std::move(entry));
  }
  out.unlisted = e["unlisted"].count();
  return out;
}

stats::backlog backlog(const at& b) { return {b["behind"].count(), b["oldest_seconds"].bounded()}; }

stats::pace_totals pacing(const at& p) {
  stats::pace_totals t;
  t.offered_tpm = p["offered_tpm"].number();
  t.window_seconds = p["window_seconds"].bounded();
  t.intended = p["intended"].count();
  t.began = p["began"].count();
  t.max_lag_seconds = p["max_lag_seconds"].bounded();
  t.at_start = backlog(p["backlog_at_start"]);
  t.at_end = backlog(p["backlog_at_end"]);
  return t;
}

// The "steps" array's windows (the figures in it are recomputed from the series on reading,
// as report/steps.hpp computes them: only the windows are read); none without a schedule.
std::vector<run::step_window> read_step_windows(const at& doc, std::size_t scheduled) {
  std::vector<run::step_window> out;
  if (!doc.has("steps")) return out;
  const at list = doc["steps"];
  if (list.array().size() > scheduled) list.fail("more steps than config.schedule has");
  for (std::size_t i = 0; i < list.array().size(); ++i) {
    const at s = list[i];
    if (s["index"].integer() != static_cast<std::int64_t>(i) + 1) {
      s["index"].fail("expected the steps numbered from 1 in order");
    }
    run::step_window w;
    w.rate_tpm = read_step_rate(s["offered_tpm"]);
    w.start_seconds = s["start_seconds"].bounded();
    w.window_start = s["window_start_seconds"].bounded();
    w.end_seconds = s["end_seconds"].bounded();
    w.partial = s["partial"].boolean();
    w.analytic_streams = s.has("analytic_streams") ? s["analytic_streams"].integer() : -1;
    if (s.has("pacing")) w.pacing = pacing(s["pacing"]);
    if (!(w.start_seconds <= w.window_start && w.window_start <= w.end_seconds)) {
      s.fail("expected start_seconds <= window_start_seconds <= end_seconds");
    }
    out.push_back(w);
  }
  return out;
}

// "ch.series": the analytic side per interval, in order.
std::vector<run::ch_interval> read_ch_series(const at& list) {
  std::vector<run::ch_interval> out;
  for (std::size_t i = 0; i < list.array().size(); ++i) {
    const at e = list[i];
    run::ch_interval c;
    c.start_seconds = e["start_seconds"].bounded();
    c.end_seconds = e["end_seconds"].bounded();
    if (c.end_seconds < c.start_seconds) e.fail("expected start_seconds <= end_seconds");
    c.completed = e["completed"].count();
    c.failed = e["failed"].count();
    c.cancelled = e["cancelled"].count();
    c.p90_us = e["p90_us"].count();
    out.push_back(c);
  }
  return out;
}

// "ch.series_p90": whether each interval's p90 is exact or, merged, the shards' largest.
bool read_series_p90(const at& a) {
  const std::string what = a.text();
  if (what == "exact") return false;
  if (what == "max of the merged shards' (an upper bound)") return true;
  a.fail("expected \"exact\" or \"max of the merged shards' (an upper bound)\"");
}

// CH-benCHmark's "ch" (run --analytic-streams); absent (older files) or null: no stream ran.
// Each query's counts and latency histogram are read; the totals and the queries per hour are
// recomputed from them (run_result/ch_result.hpp).
run::ch_totals read_ch(const at& doc) {
  run::ch_totals c;
  if (!doc.has("ch") || doc["ch"].value.is_null()) return c;
  const at ch = doc["ch"];
  c.streams = ch["streams"].integer();
  if (c.streams < 1) ch["streams"].fail("expected 1 or more (\"ch\" is null without streams)");
  const at list = ch["queries"];
  if (list.array().size() != run::ch_query_count) list.fail("expected one entry per query (22)");
  for (std::size_t i = 0; i < run::ch_query_count; ++i) {
    const at q = list[i];
    if (q["query"].integer() != static_cast<std::int64_t>(i) + 1) {
      q["query"].fail("expected the queries numbered from 1 in order");
    }
    run::ch_query_totals& t = c.queries[i];
    t.completed = q["completed"].count();
    t.failed = q["failed"].count();
    t.cancelled = q["cancelled"].count();
    t.latency = cumulative(q["latency"]);
    if (t.latency.count() != t.completed) q["latency"]["count"].fail("does not equal completed");
    if (!q["last_rows"].value.is_null()) t.last_rows = q["last_rows"].integer();
  }
  if (ch.has("series")) c.series = read_ch_series(ch["series"]);  // older files: none
  if (ch.has("series_p90")) c.series_p90_max_of_shards = read_series_p90(ch["series_p90"]);
  return c;
}

// A step's analytic streams as written, or (-1: absent) every stream the run had.
void resolve_step_streams(run::run_result& r) {
  const auto resolve = [&r](std::int64_t& n) {
    if (n < 0) n = r.ch.streams;
  };
  for (run::rate_step& s : r.config.schedule) resolve(s.analytic_streams);
  for (run::step_window& w : r.steps) resolve(w.analytic_streams);
}

void figures(const at& doc, run::run_result& r) {
  r.warehouses = doc["warehouses"].integer();
  r.terminals = doc["terminals"].integer();
  r.first_warehouse = doc["first_warehouse"].integer();
  r.last_warehouse = doc["last_warehouse"].integer();
  r.wait_scale = doc["wait_scale"].bounded();
  r.measured_seconds = doc["measured_seconds"].bounded();
  r.interrupted = doc["interrupted"].boolean();
  r.drained = doc["drained"].boolean();
  r.fatal = doc["fatal"].text();
  per_kind(doc["transactions"],
           [&r](txn::kind k, const at& e) { r.results.kinds[txn::index(k)] = kind_totals(e); });
  r.results.outside_window = doc["outside_window"].count();
  r.errors = errors(doc);
  if (doc.value.contains("longest_stall")) {  // older results: none
    r.results.longest_stall_seconds = doc["longest_stall"]["seconds"].number();
    r.results.stall_began_seconds = doc["longest_stall"]["began_after_seconds"].number();
  }
  deliveries(doc["deferred_delivery"], r.results);
  r.results.inputs = inputs(doc["inputs"]);
  r.client = client(doc["client"]);
  if (doc.has("rate")) r.pacing = pacing(doc["rate"]);  // --rate runs only
  for (std::size_t i = 0; i < doc["series"].array().size(); ++i) {
    r.series.push_back(sample(doc["series"][i]));
  }
  r.steps = read_step_windows(doc, r.config.schedule.size());
  r.ch = read_ch(doc);
  r.config.analytic_streams = r.ch.streams;
  resolve_step_streams(r);
}

loaded_result document(const at& doc) {
  if (doc["format"].text() != "shoal-tpcc-result") doc["format"].fail("not a shoal-tpcc result");
  if (doc["versions"]["result_format"].integer() != json_format_version) {
    doc["versions"]["result_format"].fail("an unknown result format version");
  }
  check_layout(doc["histogram_layout"]);
  loaded_result out;
  out.context.target = doc["target"].text();
  out.context.version = doc["versions"]["shoal_tpcc"].text();
  run::run_result& r = out.result;
  r.started = doc["started"].time();
  r.ended = doc["ended"].time();
  r.config = config(doc["config"]);
  r.origin = origin(doc);
  r.consistency = consistency(doc);
  r.load_constants = constants(doc["nurand"]["load"]);
  r.run_constants = constants(doc["nurand"]["run"]);
  figures(doc, r);
  return out;
}

// A result nests six levels; anything far deeper is refused before it is parsed.
constexpr int max_nesting = 64;

// How deep the arrays and objects of `text` nest (brackets inside strings not counted).
int nesting(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

std::variant<loaded_result, std::string> parse_json(std::string_view text,
                                                    const std::string& name) {
  if (nesting(text) > max_nesting) {
    return std::string(name)
        .append(": nested deeper than ")
        .append(std::to_string(max_nesting))
        .append(" levels (not a shoal-tpcc result)");
  }
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return std::string(name).append(": not valid JSON");
  try {
    return document(at{doc, ""});
  } catch (const malformed& e) {
    return std::string(name).append(": ").append(e.what());
  }
}

std::variant<loaded_result, std::string> read_json(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::string("cannot read ").append(file);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json(text.str(), file);
}

}  // namespace tpcc::report
