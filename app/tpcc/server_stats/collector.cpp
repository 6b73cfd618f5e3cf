// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/collector.cpp: the reading coroutine and the figures it keeps (see
// collector.hpp).
#include "server_stats/collector.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

#include "driver/open.hpp"
#include "server_stats/kinds.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"

namespace tpcc::server_stats {
namespace {

constexpr double not_known = std::numeric_limits<double>::quiet_NaN();

// Reads the baseline, then once after each wake, until stopped; holds a gate token meanwhile.
shoal::task<void> reading_loop(shoal::gate_token token, collector& c) {
  co_await c.read_baseline();
  while (true) {
    const bool woken = co_await c.woken().wait();
    if (!woken) break;  // abandoned by stop()
    const bool more = co_await c.read_pending();
    if (!more) break;
  }
  token.reset();  // leaves the gate
}

// A counter's growth between two readings; NaN when either is unknown or it went back (reset).
double growth(double before, double now) {
  if (!std::isfinite(before) || !std::isfinite(now) || now < before) return not_known;
  return now - before;
}

}  // namespace

collector::collector(std::unique_ptr<driver::database> db, std::unique_ptr<source> src,
                     std::function<void(const std::string&)> say)
    : db_(std::move(db)), source_(std::move(src)), say_(std::move(say)), name_(db_->describe()) {
  figures_.source = source_->name();
  figures_.figures = source_->figures();
}

collector::~collector() { assert(!started_ || stopped_); }

void collector::start(shoal::thread_pool& pool) {
  started_ = true;
  pool.spawn(shoal::with_stop_token(stop_.get_token(), reading_loop(gate_.enter(), *this)));
}

void collector::cut(cut_mark mark) {
  {
    const std::scoped_lock lock(mutex_);
    pending_.push_back(std::move(mark));
  }
  wake_.set();
}

shoal::task<void> collector::stop() {
  if (stopped_) co_return;
  stopped_ = true;
  {
    const std::scoped_lock lock(mutex_);
    stopping_ = true;
  }
  wake_.set();
  const bool in_time = co_await shoal::with_timeout(stop_bound, gate_.close());
  if (!in_time) {
    stop_.request_stop();  // a reading stuck on the server: its connection is closed
    const bool emptied = co_await gate_.close();
    static_cast<void>(emptied);
    note({std::string("the server did not answer within ")
              .append(std::to_string(stop_bound.count()))
              .append(" s at the end of the run: the last interval has no server figures")});
  }
  co_await db_->close();
}

shoal::task<std::optional<reading>> collector::read_now(double& ms) {
  driver::lease session = co_await db_->acquire();
  if (!session) {
    note({"the collector's connection: " + session.status().message});
    co_return std::nullopt;
  }
  const auto from = std::chrono::steady_clock::now();
  reading r = co_await source_->read(*session);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
  note(r.refused);
  co_return r;
}

shoal::task<std::string> collector::identify() {
  const driver::statement* query = source_->identity_query();
  if (query == nullptr) co_return std::string();
  driver::lease session = co_await db_->acquire();
  if (!session) co_return std::string();
  const driver::statement_result r = co_await query_alone(*session, *query);
  if (!r.ok() || r.rows.size() != 1 || r.rows[0].size() != 1 || r.rows[0].null_at(0)) {
    co_return std::string();
  }
  co_return r.rows[0].text_at(0);
}

shoal::task<statement_map> collector::read_statements() {
  driver::lease session = co_await db_->acquire();
  if (!session) co_return statement_map{};
  statements_reading r = co_await source_->statements(*session);
  note(r.refused);
  co_return std::move(r.totals);
}

shoal::task<void> collector::read_baseline() {
  double ms = 0;
  std::optional<reading> r = co_await read_now(ms);
  baseline_ = r ? r->values : std::vector<double>(figures_.figures.size(), not_known);
  last_ = baseline_;
  record({}, r.value_or(reading{baseline_, {}}), ms);
}

shoal::task<bool> collector::read_pending() {
  std::vector<cut_mark> marks;
  bool stopping = false;
  {
    const std::scoped_lock lock(mutex_);
    marks.swap(pending_);
    stopping = stopping_;
    wake_.reset();  // under the lock: a cut() after it sets the event again
  }
  if (!marks.empty()) {
    double ms = 0;
    std::optional<reading> r = co_await read_now(ms);
    reading got = r ? std::move(*r) : reading{std::vector<double>(last_.size(), not_known), {}};
    record(marks, got, ms);
    const bool opens = std::any_of(marks.begin(), marks.end(), [](const cut_mark& m) {
      return m.next == "measuring" && m.ended != "measuring";
    });
    const bool closes = std::any_of(marks.begin(), marks.end(), [](const cut_mark& m) {
      return m.ended == "measuring" && m.next != "measuring";
    });
    if (opens) window_from_ = co_await read_statements();
    if (closes && window_from_) window_to_ = co_await read_statements();
  }
  co_return !stopping;
}

void collector::record(const std::vector<cut_mark>& marks, const reading& r, double ms) {
  sample_cost& cost = figures_.cost;
  cost.mean_ms = (cost.mean_ms * static_cast<double>(cost.samples) + ms) /
                 static_cast<double>(cost.samples + 1);
  cost.max_ms = std::max(cost.max_ms, ms);
  ++cost.samples;
  if (!marks.empty()) {
    server_interval s;
    s.start_seconds = last_end_;
    s.end_seconds = marks.back().end_seconds;
    s.phase = marks.front().ended;
    s.sample_ms = ms;
    for (std::size_t i = 0; i < figures_.figures.size(); ++i) {
      const bool counter = figures_.figures[i].kind == measure::counter;
      s.values.push_back(counter ? growth(last_[i], r.values[i]) : r.values[i]);
    }
    last_end_ = s.end_seconds;
    figures_.series.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < last_.size(); ++i) {
    if (std::isfinite(r.values[i])) last_[i] = r.values[i];
  }
  live_figures live{figures_.source, figures_.figures, {}, ms, cost.samples};
  for (std::size_t i = 0; i < last_.size(); ++i) {
    const bool counter = figures_.figures[i].kind == measure::counter;
    live.values.push_back(counter ? growth(baseline_[i], last_[i]) : r.values[i]);
  }
  const std::scoped_lock lock(mutex_);
  latest_ = std::move(live);
}

void collector::note(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    if (std::find(figures_.notes.begin(), figures_.notes.end(), line) != figures_.notes.end()) {
      continue;  // said once
    }
    figures_.notes.push_back(line);
    if (say_) say_(line);
  }
}

std::optional<live_figures> collector::latest() const {
  const std::scoped_lock lock(mutex_);
  return latest_;
}

server_figures collector::finish() {
  server_figures out = figures_;
  std::vector<double> sum(out.figures.size(), 0.0);
  std::vector<std::size_t> seen(out.figures.size(), 0);
  for (const server_interval& s : out.series) {
    if (s.phase != "measuring") continue;
    out.window_seconds += s.end_seconds - s.start_seconds;
    for (std::size_t i = 0; i < sum.size(); ++i) {
      if (!std::isfinite(s.values[i])) continue;
      sum[i] += s.values[i];
      ++seen[i];
    }
  }
  if (out.window_seconds > 0) {
    for (std::size_t i = 0; i < sum.size(); ++i) {
      const bool gauge = out.figures[i].kind == measure::gauge;
      if (seen[i] == 0)
        sum[i] = not_known;
      else if (gauge)
        sum[i] /= static_cast<double>(seen[i]);
    }
    out.window = std::move(sum);
  }
  if (window_from_ && window_to_) out.top_statements = top_statements(*window_from_, *window_to_);
  return out;
}

std::vector<top_statement> top_statements(const statement_map& from, const statement_map& to) {
  std::vector<top_statement> out;
  for (const auto& [key, now] : to) {
    const auto before = from.find(key);
    const statement_totals base = before == from.end() ? statement_totals{} : before->second;
    const top_statement t{now.query, now.calls - base.calls, now.total_ms - base.total_ms,
                          now.rows - base.rows};
    if (t.calls > 0) out.push_back(t);
  }
  std::sort(out.begin(), out.end(),
            [](const top_statement& a, const top_statement& b) { return a.total_ms > b.total_ms; });
  if (out.size() > max_top_statements) out.resize(max_top_statements);
  return out;
}

shoal::task<opened_collector> open_collector(const driver::target& target,
                                             std::chrono::milliseconds connect_timeout,
                                             std::function<void(const std::string&)> say) {
  std::unique_ptr<source> src = source_for(target.kind);
  if (!src) co_return opened_collector{};
  driver::database_options options;
  options.target = target.text;
  options.connections = 1;
  options.connect_timeout = connect_timeout;
  driver::open_result opened = co_await driver::open_database(std::move(options));
  if (auto* refused = std::get_if<driver::outcome>(&opened)) {
    opened_collector none;
    none.why_not = "no connection of its own: " + refused->message;
    co_return none;
  }
  opened_collector out;
  out.made =
      std::make_unique<collector>(std::move(std::get<0>(opened)), std::move(src), std::move(say));
  co_return out;
}

}  // namespace tpcc::server_stats
