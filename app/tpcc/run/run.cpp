// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/run.cpp: starting, timing and ending a run (see run.hpp).
#include "run/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "random/rng.hpp"
#include "run/analytic.hpp"
#include "run/ch_series.hpp"
#include "run/endpoint_series.hpp"
#include "run/endpoints.hpp"
#include "run/monitor.hpp"
#include "run/more_servers.hpp"
#include "run/schedule.hpp"
#include "run/shard.hpp"
#include "run/wall_clock.hpp"
#include "schema/meta.hpp"
#include "shoal/gate.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"
#include "stats/error_log.hpp"
#include "stats/memory_room.hpp"
#include "terminal/deliverer.hpp"
#include "terminal/terminal.hpp"

namespace tpcc::run {
namespace {

using clock = stats::clock;
using driver::outcome;
using driver::outcome_kind;

constexpr std::int64_t spec_terminals_per_warehouse = 10;  // clause 4.2.2

outcome refuse(std::string why) { return outcome::make(outcome_kind::failed, "", std::move(why)); }

// A refusal of the command line's input, found once the loaded database is known (bad_input).
outcome refuse_input(std::string why) {
  return outcome::make(outcome_kind::failed, std::string(bad_input), std::move(why));
}

// The loaded database must be complete and agree with what the run asks for.
std::optional<outcome> validate(const schema::load_meta& meta, std::int64_t& warehouses) {
  if (auto why = meta.incomplete()) return refuse(std::move(*why));
  if (warehouses != 0 && warehouses != meta.warehouses) {
    return refuse("the database was loaded with " + std::to_string(meta.warehouses) +
                  (meta.warehouses == 1 ? " warehouse" : " warehouses") +
                  ", but the run asks for " + std::to_string(warehouses));
  }
  warehouses = meta.warehouses;
  return std::nullopt;
}

// Keeps a gate token for as long as the work it wraps runs.
shoal::task<void> inside(shoal::gate_token token, shoal::task<void> work) {
  co_await std::move(work);
  token.reset();  // leaves the gate
}

struct crew {
  shoal::gate terminals;
  shoal::gate deliverers;
};

// Starts the terminals of warehouses [range.first, range.last] (this shard's).
std::int64_t start_terminals(shoal::thread_pool& pool, terminal::run_context& ctx, crew& c,
                             const run_config& config, random::rng& rng, warehouse_range range) {
  const auto spread = std::max<std::int64_t>(1, config.warmup.count() / 2);
  std::int64_t started = 0;
  for (std::int64_t w = range.first; w <= range.last; ++w) {
    for (std::int64_t d = 1; d <= config.terminals_per_warehouse; ++d) {
      terminal::terminal_config t;
      t.w_id = static_cast<std::int32_t>(w);
      // Each terminal its district for Stock-Level (clause 2.8.1.2); beyond 10, they repeat.
      t.stock_level_d_id = static_cast<std::int32_t>((d - 1) % spec_terminals_per_warehouse + 1);
      const auto start_delay = std::chrono::nanoseconds(rng.uniform(0, spread - 1));
      const auto worker = static_cast<std::size_t>(started) % pool.size();
      const auto run = ctx.pace.active() ? terminal::run_paced_terminal : terminal::run_terminal;
      pool.spawn_on(worker, run(ctx, t, start_delay, rng.split(), c.terminals.enter()),
                    ctx.issue_stop.get_token());
      ++started;
    }
  }
  return started;
}

void start_deliverers(shoal::thread_pool& pool, terminal::run_context& ctx, crew& c,
                      std::size_t count) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, count); ++i) {
    pool.spawn(inside(c.deliverers.enter(), terminal::run_deliverer(ctx, i)));
  }
}

// Waits for a gate to empty for at most `bound`, then abandons what is left.
shoal::task<bool> drain(shoal::gate& g, std::chrono::nanoseconds bound,
                        terminal::run_context& ctx) {
  const bool in_time = co_await shoal::with_timeout(bound, g.close());
  if (in_time) co_return true;
  ctx.hard_stop.request_stop();
  const bool emptied = co_await g.close();  // everything left honours hard_stop
  static_cast<void>(emptied);
  co_return false;
}

// Sleeps until the planned end (following --schedule's steps, if any), or until the run is told
// to stop; true when it ran its course.
shoal::task<bool> wait_for_end(terminal::run_context& ctx, run_control& control,
                               const run_config& config, std::int64_t terminals,
                               clock::time_point measure_start, clock::time_point end) {
  const std::stop_token stop = ctx.issue_stop.get_token();
  const bool warm = co_await shoal::with_stop_token(stop, shoal::sleep_until(measure_start));
  if (!warm) co_return false;
  control.enter(phase::measuring);
  if (!config.schedule.empty()) {
    co_return co_await follow_schedule(ctx.pace, config.schedule, terminals, measure_start, stop);
  }
  const bool full = co_await shoal::with_stop_token(stop, shoal::sleep_until(end));
  co_return full;
}

double covered_seconds(const stats::snapshot& s) {
  const auto d = std::chrono::duration<double>(s.window_end - s.window_start).count();
  return std::max(0.0, d);
}

struct prepared {
  schema::load_meta meta;
  std::int64_t warehouses = 0;
};

shoal::task<std::variant<prepared, outcome>> prepare(driver::database& db,
                                                     const run_config& config) {
  auto read = co_await schema::read_meta(db);
  if (auto* failure = std::get_if<outcome>(&read)) co_return std::move(*failure);
  prepared p;
  p.meta = std::move(std::get<schema::load_meta>(read));
  p.warehouses = config.warehouses;
  auto refused = validate(p.meta, p.warehouses);
  if (refused) co_return std::move(*refused);
  co_return p;
}

// Ends the measurement window now (an interrupt), for the recorders that have one.
void close_windows(terminal::run_context& ctx, clock::time_point now) {
  ctx.recorder.close_window(now);
  if (ctx.pace_stats != nullptr) ctx.pace_stats->close_window(now);
  for (const terminal::endpoint_route& e : ctx.routes) e.recorder->close_window(now);
}

// Runs the phases on a ready context, the terminals of `range`; fills `result`.
shoal::task<void> perform(shoal::thread_pool& pool, terminal::run_context& ctx,
                          const run_config& config, warehouse_range range, run_control& control,
                          run_result& result, clock::time_point measure_start,
                          clock::time_point end, random::rng& rng) {
  crew c;
  control.enter(phase::warmup);
  start_deliverers(pool, ctx, c, config.deliverers);
  result.terminals = start_terminals(pool, ctx, c, config, rng, range);
  const bool full =
      co_await wait_for_end(ctx, control, config, result.terminals, measure_start, end);
  if (!full) close_windows(ctx, clock::now());
  result.interrupted = !full;
  control.enter(phase::draining);
  ctx.issue_stop.request_stop();
  const bool terminals_done = co_await drain(c.terminals, config.drain, ctx);
  for (const auto& queue : ctx.deliveries) queue->close();
  const bool deliveries_done = co_await drain(c.deliverers, config.drain, ctx);
  terminal::abandon_queued(ctx);  // queued in the window and never run: not on time
  result.drained = terminals_done && deliveries_done;
}

std::string no_warehouses(const run_config& config, std::int64_t warehouses) {
  std::string why = "shard ";
  why.append(std::to_string(config.shard.index)).append("/");
  why.append(std::to_string(config.shard.count)).append(" has no warehouses: the database has ");
  why.append(std::to_string(warehouses)).append(" (use at most that many shards)");
  return why;
}

// --rate asks each terminal for at most terminal::max_tpm_per_terminal (the command line checks
// it too when --warehouses is given; here the loaded count is known).
// With --schedule, its highest step.
std::optional<std::string> rate_too_high(const run_config& config, std::int64_t terminals) {
  const double most = static_cast<double>(terminals) * terminal::max_tpm_per_terminal;
  const double asked = std::max(config.rate_tpm, peak_rate(config.schedule));
  if (asked <= most) return std::nullopt;
  const std::string what = config.schedule.empty() ? "--rate " : "--schedule's step of ";
  return what + std::to_string(std::llround(asked)) + " is more than " + std::to_string(terminals) +
         " terminals can offer (at most " +
         std::to_string(std::llround(terminal::max_tpm_per_terminal)) +
         " per terminal: a mean gap of 1 ms); give more --terminals or --warehouses";
}

// Waits for --start-at, saying on stderr how long is left: at once, then every 10 s.
shoal::task<bool> count_down_to(std::chrono::system_clock::time_point at) {
  using std::chrono::system_clock;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::seconds>(at - system_clock::now());
    if (left.count() <= 0) co_return true;
    std::fprintf(stderr, "shoal-tpcc: run: starting in %lld s (--start-at)\n",
                 static_cast<long long>(left.count()));
    const auto step = std::chrono::seconds(10);
    const auto until = std::min<system_clock::time_point>(at, system_clock::now() + step);
    // Not `if (!co_await ...)`: g++ 12 miscompiles a co_await in a condition (SIGILL; seen in
    // session_pool.cpp and in detached_task_test.cpp).
    const bool slept = co_await sleep_until_wall(until);
    if (!slept) co_return false;
  }
}

// Waits for the agreed start (--start-at), if any; an outcome when interrupted meanwhile.
shoal::task<std::optional<outcome>> wait_for_start(const run_config& config, run_control& control) {
  if (!config.start_at) co_return std::nullopt;
  const bool reached = co_await shoal::with_stop_token(control.interrupt.get_token(),
                                                       count_down_to(*config.start_at));
  if (!reached) co_return refuse("interrupted while waiting for --start-at");
  co_return std::nullopt;
}

// An error log line on stderr (the dashboard's log pane shows stderr while it is up).
void print_error(const std::string& line) {
  std::fprintf(stderr, "shoal-tpcc: %s\n", line.c_str());
}

// The context every terminal and deliverer of the run shares; `terminals`: this process's.
std::unique_ptr<terminal::run_context> make_context(driver::database& db, stats::recorder& rec,
                                                    const run_config& config,
                                                    const run_result& result,
                                                    std::int64_t terminals) {
  // Deferred Deliveries waiting for a deliverer: 2 per warehouse hold over 100 s of the full
  // mix's Deliveries (one per ~52 s per warehouse), more than clause 2.7.2.2's 80 s allow. One
  // queue per deliverer, each serving every n-th warehouse.
  const std::size_t queues = std::max<std::size_t>(1, config.deliverers);
  // Sized per 10 terminals (a spec warehouse's worth of Deliveries), whatever --terminals is.
  const auto warehouses = static_cast<std::size_t>((terminals + spec_terminals_per_warehouse - 1) /
                                                   spec_terminals_per_warehouse);
  const std::size_t capacity = 2 * ((warehouses + queues - 1) / queues) + 2;
  auto ctx = std::make_unique<terminal::run_context>(db, rec, capacity, queues);
  ctx->scope.warehouses = result.warehouses;  // remote warehouses are drawn from all of them
  ctx->scope.constants = result.run_constants;
  ctx->retry = config.retry;
  ctx->wait_scale = config.wait_scale;
  // Not paced without --rate or --schedule; a schedule's warm-up offers its first step's rate.
  ctx->pace.set(config.schedule.empty() ? config.rate_tpm : config.schedule.front().rate_tpm,
                terminals);
  ctx->procedures = config.procedures;
  return ctx;
}

// The result as it starts: the run's settings as effective (the warehouses as loaded), this
// process's warehouses, the NURand constants. Every shard derives the same run constants from
// the load's (merge needs them equal).
run_result start_result(const run_config& config, const schema::load_meta& meta,
                        warehouse_range range, bool simulated) {
  run_result result;
  result.config = config;
  result.warehouses = config.warehouses;
  result.wait_scale = config.wait_scale;
  result.load_constants = meta.constants;
  result.run_constants = random::shared_run_constants(meta.constants);
  result.first_warehouse = range.first;
  result.last_warehouse = range.last;
  result.simulated = simulated;
  return result;
}

// Starts `server` reading the database's own figures at each of the monitor's cuts.
void read_server_beside(shoal::thread_pool& pool, monitor& watch, server_stats::collector& server,
                        run_control& control) {
  watch.on_cut([&server](double end, phase ended, phase next) {
    server.cut({end, stats::to_string(ended), stats::to_string(next)});
  });
  server.start(pool);
  control.publish_server(&server);
}

// CH-benCHmark's streams on `databases` (none: nullptr), started now, beside the terminals;
// with --schedule, as many running as its first step says.
std::unique_ptr<analytic_streams> start_analytic(
    shoal::thread_pool& pool, const driver::database& db, std::vector<driver::database*> databases,
    const run_config& config, clock::time_point measure_start, clock::time_point end) {
  if (databases.empty()) return nullptr;
  analytic_plan plan;
  plan.databases = std::move(databases);
  plan.dialect = driver::engine_of(db.describe());
  plan.window_start = measure_start;
  plan.window_end = end;
  auto streams = std::make_unique<analytic_streams>(pool, std::move(plan));
  if (!config.schedule.empty()) {
    streams->set_active(static_cast<std::size_t>(config.schedule.front().analytic_streams));
  }
  streams->start();
  return streams;
}

// follow_stream_steps inside `token`'s gate, which it leaves when done.
shoal::task<void> follow_streams_inside(shoal::gate_token token, analytic_streams& streams,
                                        std::vector<rate_step> steps, clock::time_point start,
                                        std::stop_token stop) {
  co_await follow_stream_steps(streams, std::move(steps), start, std::move(stop));
  token.reset();  // leaves the gate
}

}  // namespace

std::optional<stats::snapshot> run_control::snapshot() const {
  const std::scoped_lock lock(mutex_);
  if (recorder_ == nullptr) return std::nullopt;
  return recorder_->take();
}

std::optional<live_view> run_control::live() const {
  const std::scoped_lock lock(mutex_);
  if (recorder_ == nullptr) return std::nullopt;
  live_view v = fixed_;
  v.now = phase_.load();
  v.elapsed_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  v.window = recorder_->take();
  return v;
}

std::optional<stats::cumulative> run_control::totals() const {
  const std::scoped_lock lock(mutex_);
  if (recorder_ == nullptr) return std::nullopt;
  return recorder_->take_all();
}

void run_control::publish(const stats::recorder* r, const live_view& view,
                          std::chrono::steady_clock::time_point started) {
  const std::scoped_lock lock(mutex_);
  recorder_ = r;
  if (r == nullptr) return;
  fixed_ = view;
  started_ = started;
}

void run_control::publish_interval(const stats::interval_sample& sample) {
  const std::scoped_lock lock(mutex_);
  fixed_.last = sample;
}

void run_control::publish_server(const server_stats::collector* c) {
  const std::scoped_lock lock(mutex_);
  server_ = c;
}

std::vector<server_totals> run_control::servers() const {
  const std::scoped_lock lock(mutex_);
  std::vector<const server_stats::collector*> all = more_servers_;
  all.insert(all.begin(), server_);
  std::vector<server_totals> out;
  for (const server_stats::collector* c : all) {
    std::optional<server_stats::live_figures> f = c != nullptr ? c->latest() : std::nullopt;
    if (!f) continue;
    out.push_back({more_servers_.empty() ? std::string() : c->describe(), std::move(*f)});
  }
  return out;
}

void run_control::publish_more_servers(std::vector<const server_stats::collector*> list) {
  const std::scoped_lock lock(mutex_);
  more_servers_ = std::move(list);
}

shoal::task<run_outcome> run_benchmark(shoal::thread_pool& pool, driver::database& db,
                                       run_config config, run_control& control,
                                       server_stats::collector* server,
                                       std::vector<driver::database*> more_endpoints,
                                       std::vector<server_stats::collector*> more_servers,
                                       std::vector<driver::database*> analytic) {
  more_endpoints.insert(more_endpoints.begin(), &db);  // every endpoint, in --db order
  auto ready = co_await prepare(db, config);
  if (auto* failure = std::get_if<outcome>(&ready)) co_return std::move(*failure);
  const prepared& p = std::get<prepared>(ready);
  config.warehouses = p.warehouses;  // as loaded when not given
  const warehouse_range range = shard_range(p.warehouses, config.shard);  // this process's
  if (range.count() == 0) co_return refuse(no_warehouses(config, p.warehouses));
  if (auto why = endpoints_refused(more_endpoints.size(), range)) co_return refuse(*why);
  // A size that cannot fit is refused now, before any wait for --start-at.
  const std::int64_t terminals = range.count() * config.terminals_per_warehouse;
  if (auto why = stats::too_big_for(terminals, stats::memory_room())) co_return refuse(*why);
  if (auto why = rate_too_high(config, terminals)) co_return refuse_input(*why);
  // Not `if (auto x = co_await ...)`: g++ 12 miscompiles a co_await in a condition.
  std::optional<outcome> late = co_await wait_for_start(config, control);
  if (late) co_return std::move(*late);

  random::rng rng(config.seed);
  run_result result = start_result(config, p.meta, range, db.simulated());
  const clock::time_point measure_start = clock::now() + config.warmup;
  const clock::time_point end = measure_start + config.measure;
  stats::recorder recorder(measure_start, end);
  auto ctx = make_context(db, recorder, config, result, terminals);
  const endpoint_set endpoints = route_endpoints(more_endpoints, range, measure_start, end);
  ctx->routes = endpoints.routes;
  stats::error_log errors(print_error);
  ctx->errors = &errors;
  stats::pace_windows pace_stats({measure_start, end}, step_spans(config.schedule, measure_start));
  if (ctx->pace.active()) ctx->pace_stats = &pace_stats;
  std::unique_ptr<terminal::delivery_log> delivery_results;
  if (!config.delivery_log.empty()) {
    auto created = terminal::delivery_log::create(config.delivery_log);
    if (auto* why = std::get_if<std::string>(&created)) co_return refuse(*why);
    delivery_results = std::move(std::get<0>(created));
    ctx->delivery_results = delivery_results.get();
  }
  // Ctrl-C reaches the terminals through issue_stop.
  const std::stop_callback forward(control.interrupt.get_token(),
                                   [&ctx] { ctx->issue_stop.request_stop(); });
  live_view fixed;
  fixed.warmup_seconds = std::chrono::duration<double>(config.warmup).count();
  fixed.measure_seconds = std::chrono::duration<double>(config.measure).count();
  fixed.warehouses = range.count();  // this process's (its shard's)
  fixed.terminals = terminals;
  fixed.simulated = db.simulated();
  result.started = std::chrono::system_clock::now();
  const clock::time_point started = clock::now();
  control.publish(&recorder, fixed, started);
  control.publish_endpoints(live_endpoints(endpoints));
  auto watch = std::make_unique<monitor>(pool, db, recorder, control, started, config.interval);
  watch->count_deliveries_with([&ctx] {
    std::size_t queued = 0;
    for (const auto& queue : ctx->deliveries) queued += queue->size();
    return queued;
  });
  if (!endpoints.routes.empty())
    watch->read_pool_with([&endpoints] { return pools_of(endpoints); });
  endpoint_series per_endpoint(endpoints);  // cut at the monitor's cuts (none with one)
  watch->on_cut(
      [&per_endpoint](double cut_at, phase ended, phase) { per_endpoint.cut(cut_at, ended); });
  if (server != nullptr) read_server_beside(pool, *watch, *server, control);
  read_servers_beside(pool, *watch, more_servers);
  control.publish_more_servers({more_servers.begin(), more_servers.end()});
  auto streams = start_analytic(pool, db, std::move(analytic), config, measure_start, end);
  ch_series ch_cuts([&streams] { return streams->progress(); });  // cut only with streams
  if (streams) watch->on_cut([&ch_cuts](double cut_at, phase, phase) { ch_cuts.cut(cut_at); });
  watch->start();
  control.publish_analytic(streams.get());
  const std::stop_callback end_streams(ctx->issue_stop.get_token(), [&streams] {
    if (streams) streams->end();  // cancels the queries in flight at once
  });
  shoal::gate stream_steps;  // --schedule's streams=N steps, followed beside the run
  std::stop_source steps_over;
  if (streams && !config.schedule.empty()) {
    pool.spawn(follow_streams_inside(stream_steps.enter(), *streams, config.schedule, measure_start,
                                     steps_over.get_token()));
  }
  co_await perform(pool, *ctx, config, range, control, result, measure_start, end, rng);
  steps_over.request_stop();  // however the run ended, no step is left to follow
  const bool steps_left = co_await stream_steps.close();
  static_cast<void>(steps_left);
  if (streams) {
    co_await streams->stop();
    result.ch = streams->take();
  }
  co_await watch->stop();  // nothing of it stays on the pool
  watch->finish(result, result.terminals, config.client_lag_limit);
  if (streams) result.ch.series = ch_cuts.take();  // the last cut was finish()'s
  if (server != nullptr) {
    co_await server->stop();  // reads the last cut
    control.publish_server(nullptr);
    result.server = server->finish();
  }
  control.publish_more_servers({});
  result.more_servers = co_await finish_servers(more_servers);
  control.publish(nullptr);
  control.publish_endpoints({});
  control.publish_analytic(nullptr);
  control.enter(phase::done);
  errors.flush();
  result.errors = errors.list(started, result.started);
  result.results = recorder.take();
  result.deferred_deliveries = recorder.deferred_ends();
  result.endpoints = endpoint_results(endpoints, per_endpoint.take());
  result.measured_seconds = covered_seconds(result.results);
  if (ctx->pace_stats != nullptr) result.pacing = pace_stats.take(config.rate_tpm);
  result.steps =
      step_windows(config.schedule, std::chrono::duration<double>(measure_start - started).count(),
                   result.measured_seconds);
  if (ctx->pace_stats != nullptr) add_step_pacing(result.steps, pace_stats);
  result.fatal = ctx->fatal();
  if (delivery_results) {
    const auto failed = delivery_results->close();  // every deliverer has left
    if (failed && result.fatal.empty()) result.fatal = *failed;
  }
  result.ended = std::chrono::system_clock::now();
  co_return result;
}

}  // namespace tpcc::run
