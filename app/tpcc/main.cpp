// app/tpcc/main.cpp: shoal-tpcc's entry point, the only file that knows every module.
//
// What: parses the command line (cli/), starts the worker pool and the console (progress lines,
// Ctrl-C), opens the database (driver/), and runs the command: init (schema/), load (loader/),
// run (run/, report/), check (check/), clean, or with no command all of them in turn.
// Exit status: 0 done; 1 the database refused or a check failed; 2 bad command line;
// 130 interrupted (the results measured so far are printed first).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "check/check.hpp"
#include "check/print.hpp"
#include "cli/command_line.hpp"
#include "cli/console.hpp"
#include "cli/help.hpp"
#include "cli/options.hpp"
#include "cli/output_paths.hpp"
#include "driver/open.hpp"
#include "loader/estimate.hpp"
#include "loader/loader.hpp"
#include "metrics/render.hpp"
#include "metrics/server.hpp"
#include "metrics/view.hpp"
#include "random/rng.hpp"
#include "report/csv.hpp"
#include "report/hdr_log.hpp"
#include "report/html.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "report/summary.hpp"
#include "report/verdict.hpp"
#include "run/run.hpp"
#include "schema/apply.hpp"
#include "schema/meta.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/process.hpp"
#include "tpcc_commit.hpp"
#include "ui/live_display.hpp"
#include "ui/load_screen.hpp"

namespace {

using namespace tpcc;  // NOLINT(google-build-using-namespace): main knows every module

constexpr int exit_ok = 0;
constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_judged = 3;  // run: the verdict failed or transactions failed for good

struct app {
  cli::config cfg;
  std::string command_line;  // as recorded in every result (cli/command_line.hpp)
  shoal::thread_pool& pool;
  cli::console& console;
  std::stop_source interrupt;
  shoal::stream_listener* metrics = nullptr;  // --metrics-addr, bound before any work
};

int fail(std::string_view step, const std::string& message) {
  std::fprintf(stderr, "shoal-tpcc: %.*s: %s\n", static_cast<int>(step.size()), step.data(),
               message.c_str());
  return exit_failed;
}

std::string fixed(double v, int digits) {
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%.*f", digits, v);
  return b.data();
}

shoal::task<int> init_command(app& a, driver::database& db) {
  schema::init_report report;
  const driver::outcome done = co_await schema::create_schema(db, report);
  if (!done.ok()) co_return fail("init", done.message);
  const char* engine = a.cfg.is_sqlite() ? "SQLite"
                       : a.cfg.db.kind == driver::engine::mysql
                           ? "MySQL/MariaDB"
                           : schema::to_string(report.detected);
  std::printf("init: %zu tables ready on %s%s\n", report.tables, engine,
              schema::distribution_summary(report).c_str());
  std::fflush(stdout);
  co_return exit_ok;
}

// The live display of one command (the dashboard, or plain lines: ui/live_display.hpp) wired
// to the console: its reporter, and a second Ctrl-C giving the terminal back before the exit.
// close() (or the destructor) unwires it and gives the terminal back, so what follows prints
// on the normal screen.
class shown_display {
 public:
  shown_display(cli::console& console, const cli::config& cfg)
      : console_(console), display_(ui::choose_mode(cfg.progress, cfg.tui)) {
    console_.set_before_exit([this] { display_.close(); });
  }
  shown_display(const shown_display&) = delete;
  shown_display& operator=(const shown_display&) = delete;
  ~shown_display() { close(); }

  ui::live_display& display() { return display_; }
  void report(std::function<std::string()> reporter) { console_.set_reporter(std::move(reporter)); }
  void close() {
    console_.clear_reporter();
    console_.set_before_exit(nullptr);
    display_.close();
  }

 private:
  cli::console& console_;
  ui::live_display display_;
};

shoal::task<int> load_command(app& a, driver::database& db) {
  loader::load_options options;
  options.warehouses = a.cfg.warehouses;
  options.parallel = a.cfg.load_parallel;
  options.seed = a.cfg.seed != 0 ? a.cfg.seed : random::seed_from_time();
  auto progress = std::make_unique<loader::load_progress>();
  auto shown = std::make_unique<shown_display>(a.console, a.cfg);
  shown->report(ui::load_reporter(shown->display(), *progress, db.describe()));
  const driver::outcome done = co_await shoal::with_stop_token(
      a.interrupt.get_token(), loader::load(db, options, *progress));
  shown->close();
  const loader::progress_snapshot last = progress->snapshot();
  if (shown->display().mode() == ui::display_mode::lines) {  // the last line, every table's end
    std::fprintf(stderr, "%s\n", ui::load_line(last).c_str());
  }
  if (!done.ok()) {
    if (last.warehouses_total > 0) {  // the count is recorded: a plain `load` resumes
      std::fprintf(stderr, "shoal-tpcc: load: resume it with: shoal-tpcc load --db %s\n",
                   driver::redact(a.cfg.db.text).c_str());
    }
    co_return a.console.interrupted() ? a.console.interrupt_status() : fail("load", done.message);
  }
  std::printf("load: %lld warehouse%s loaded, %lld rows in %s s (%s rows/s)\n",
              static_cast<long long>(last.warehouses_total), last.warehouses_total == 1 ? "" : "s",
              static_cast<long long>(last.rows), fixed(last.elapsed_seconds, 1).c_str(),
              fixed(last.rows_per_second, 0).c_str());
  std::fflush(stdout);
  co_return exit_ok;
}

// What the run's display shows besides the live view.
ui::run_screen run_settings(const run::run_config& rc, const driver::database& db) {
  ui::run_screen s;
  s.wait_scale = rc.wait_scale;
  s.client_lag_limit = rc.client_lag_limit;
  s.target = db.describe();
  if (db.simulated()) s.note = "SIMULATED database: client capacity, not a database result";
  return s;
}

// --json FILE: writes the result; false (and says why) when it could not be written.
bool write_result_json(const cli::config& cfg, const run::run_result& r,
                       const std::string& target) {
  if (cfg.json_path.empty()) return true;
  const auto failed = report::write_json(cfg.json_path, r, {target, SHOAL_TPCC_VERSION});
  if (failed) fail("--json", *failed);
  return !failed;
}

// --html FILE and --hdr-log FILE: false (and says why) when one could not be written.
bool write_report_files(const cli::config& cfg, const run::run_result& r,
                        const std::string& target) {
  bool written = true;
  if (!cfg.html_path.empty()) {
    const auto failed = report::write_html(r, target, cfg.html_path);
    if (failed) fail("--html", *failed);
    written = written && !failed;
  }
  if (!cfg.csv_path.empty()) {
    const auto failed = report::write_csv(r, cfg.csv_path);
    if (failed) fail("--csv", *failed);
    written = written && !failed;
  }
  if (!cfg.hdr_log_path.empty()) {
    const auto failed = report::write_hdr_log(r, cfg.hdr_log_path);
    if (failed) fail("--hdr-log", *failed);
    written = written && !failed;
  }
  return written;
}

// --interval, --client-lag-limit, --shard, --start-at (warning when the start is past).
void measurement_settings(const cli::config& cfg, run::run_config& rc) {
  rc.interval = cfg.interval;
  rc.client_lag_limit = cfg.client_lag_limit;
  rc.shard.index = cfg.shard_index;
  rc.shard.count = cfg.shard_count;
  rc.start_at = cfg.start_at;
  if (!cfg.start_at) return;
  const std::chrono::duration<double> late = std::chrono::system_clock::now() - *cfg.start_at;
  if (late.count() > 0) {
    std::fprintf(stderr,
                 "shoal-tpcc: warning: --start-at is %.0f s in the past; starting at once\n",
                 late.count());
  }
}

// Transactions of the whole run that failed with a non-retryable error.
std::uint64_t hard_failures(const run::run_result& r) {
  std::uint64_t n = 0;
  for (const stats::interval_sample& i : r.series) {
    for (const stats::interval_kind& k : i.kinds) n += k.outcomes[stats::txn_outcome::failed];
  }
  return n;
}

// exit_judged, saying why, when the verdict failed or transactions failed for good; exit_ok
// otherwise or with --tolerate-errors (which the message names).
int judged_status(const cli::config& cfg, const run::run_result& r, const std::string& target) {
  const report::verdict v = report::evaluate(r, target);
  const std::uint64_t failed = hard_failures(r);
  if (v.failing().empty() && failed == 0) return exit_ok;
  std::string why = v.failing().empty() ? std::string() : "the verdict FAILED";
  if (failed > 0) {
    why += (why.empty() ? "" : " and ") + std::to_string(failed) +
           " transaction(s) failed with non-retryable errors (each distinct error printed "
           "above)";
  }
  std::fprintf(stderr, "shoal-tpcc: run: %s%s\n", why.c_str(),
               cfg.tolerate_errors ? "; exit status 0 (--tolerate-errors)"
                                   : "; exit status 3 (--tolerate-errors to exit 0)");
  return cfg.tolerate_errors ? exit_ok : exit_judged;
}

// The summary's peak RSS is the run's, before any report was built; this one, printed last,
// includes the memory of writing them (the JSON document above all).
void print_final_rss() {
  const stats::process_usage usage = stats::read_process_usage();
  std::printf("  client      peak RSS with every report written %.1f MiB\n",
              static_cast<double>(usage.peak_rss_bytes) / 1048576.0);
  std::fflush(stdout);
}

// How the result was obtained: the command line, this build, this machine.
void record_origin(const app& a, run::provenance& p) {
  p.command_line = a.command_line;
  p.version = SHOAL_TPCC_VERSION;
  p.commit = SHOAL_TPCC_COMMIT;
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  p.cores = std::thread::hardware_concurrency();
  p.workers = a.pool.size();
  p.connections = a.cfg.connections;
}

// The run, with the metrics endpoint (--metrics-addr) served beside it for as long as it runs:
// a child of the run's scope, stopped (and awaited) when the run ends.
shoal::task<run::run_outcome> serving_metrics(app& a, const run::run_control& control,
                                              ui::run_screen settings,
                                              shoal::task<run::run_outcome> run) {
  if (a.metrics == nullptr) co_return co_await std::move(run);
  co_return co_await shoal::with_task_group<void>(
      [&](shoal::task_group<void>& group) -> shoal::task<run::run_outcome> {
        group.spawn(metrics::serve(*a.metrics, [&control, &settings] {
          return metrics::render(metrics::take_view(control, settings));
        }));
        co_return co_await std::move(run);
      });
}

// Runs; `ran` receives the result when the run took place (even one that failed), for
// finish_run to report. Not exit_ok: the run was refused, failed or interrupted.
shoal::task<int> run_step(app& a, driver::database& db, std::optional<run::run_result>& ran) {
  run::run_config rc;
  rc.warehouses = a.cfg.warehouses;
  rc.terminals_per_warehouse = a.cfg.terminals;
  rc.warmup = a.cfg.warmup;
  rc.measure = a.cfg.duration;
  rc.drain = a.cfg.drain;
  rc.wait_scale = a.cfg.wait_scale;
  rc.isolation = a.cfg.isolation;
  rc.delivery_log = a.cfg.delivery_log_path;
  rc.deliverers = a.cfg.deliverers;
  rc.seed = a.cfg.seed != 0 ? a.cfg.seed : random::seed_from_time();
  measurement_settings(a.cfg, rc);
  auto control = std::make_unique<run::run_control>();
  if (db.simulated()) {
    std::printf("run: %s: the figures measure the client's own cost\n", db.describe().c_str());
    std::fflush(stdout);
  }
  auto shown = std::make_unique<shown_display>(a.console, a.cfg);
  shown->report(ui::run_reporter(shown->display(), *control, run_settings(rc, db)));
  a.console.set_interrupt([c = control.get(), &a] {
    c->interrupt.request_stop();
    a.interrupt.request_stop();  // and the commands after the run do not start
  });
  auto outcome = co_await serving_metrics(a, *control, run_settings(rc, db),
                                          run::run_benchmark(a.pool, db, rc, *control));
  shown->close();
  a.console.set_interrupt([&a] { a.interrupt.request_stop(); });
  if (auto* refused = std::get_if<driver::outcome>(&outcome)) {
    const int status = fail("run", refused->message);
    co_return a.console.interrupted() ? a.console.interrupt_status() : status;  // before the start
  }
  run::run_result& result = ran.emplace(std::move(std::get<run::run_result>(outcome)));
  record_origin(a, result.origin);
  if (!result.fatal.empty()) co_return exit_failed;
  if (result.interrupted || a.console.interrupted()) co_return a.console.interrupt_status();
  co_return exit_ok;
}

// Prints the summary, writes the run's report files and says how it is judged (run_step's
// status when that was not exit_ok, exit_failed when a report could not be written, else
// judged_status).
int finish_run(const app& a, const run::run_result& result, const std::string& target,
               int run_status) {
  std::printf("%s", report::format_summary(result, target).c_str());
  std::fflush(stdout);
  if (!write_report_files(a.cfg, result, target)) return exit_failed;
  if (!write_result_json(a.cfg, result, target)) return exit_failed;
  print_final_rss();
  if (run_status != exit_ok) return run_status;
  return judged_status(a.cfg, result, target);
}

shoal::task<int> run_command(app& a, driver::database& db) {
  std::optional<run::run_result> ran;
  const int status = co_await run_step(a, db, ran);
  co_return ran ? finish_run(a, *ran, db.describe(), status) : status;
}

// Progress lines on stderr while checking (not with --no-progress), at most one every 2 s: before
// a condition's statement, which condition of how many on which warehouses; after a chunk, the
// warehouses done of all; and the last one.
class check_lines {
 public:
  explicit check_lines(std::int64_t total) : total_(total) {}

  void step(const check::check_step& s) {
    if (!due()) return;
    std::fprintf(stderr,
                 "check: condition %.*s (%zu of %zu) on warehouses %lld-%lld, %lld of %lld "
                 "%s checked, %.1f s\n",
                 static_cast<int>(s.clause.size()), s.clause.data(), s.condition, s.conditions,
                 static_cast<long long>(s.from), static_cast<long long>(s.to),
                 static_cast<long long>(s.warehouses_done),
                 static_cast<long long>(s.warehouses_total), noun(), elapsed());
  }
  void chunk_done(std::int64_t done) {
    if (!due() && done < total_) return;
    std::fprintf(stderr, "check: %lld of %lld %s checked, %.1f s\n", static_cast<long long>(done),
                 static_cast<long long>(total_), noun(), elapsed());
  }

 private:
  bool due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(2)) return false;
    last_ = now;
    return true;
  }
  [[nodiscard]] const char* noun() const { return total_ == 1 ? "warehouse" : "warehouses"; }
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }

  std::int64_t total_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

// What the reports of the run just before say of the check (see run::consistency_status).
run::consistency_status consistency_of(const std::vector<check::condition_result>& results) {
  run::consistency_status status;
  status.checked = true;
  for (const check::condition_result& c : results) {
    if (!c.applicable) continue;
    ++status.conditions;
    if (!c.passed) status.failing.emplace_back(c.clause);
  }
  return status;
}

// `ran`: the run just before, in the default job, whose reports will say what the check found.
shoal::task<int> check_command(app& a, driver::database& db, run::run_result* ran = nullptr) {
  auto meta = co_await schema::read_meta(db);
  if (auto* refused = std::get_if<driver::outcome>(&meta))
    co_return fail("check", refused->message);
  check::check_options options;
  options.last_warehouse = std::get<schema::load_meta>(meta).warehouses;
  options.chunk = a.cfg.check_chunk;
  if (auto why = std::get<schema::load_meta>(meta).incomplete()) co_return fail("check", *why);
  const auto started = std::chrono::steady_clock::now();
  auto lines = std::make_shared<check_lines>(options.last_warehouse);
  std::function<void(std::int64_t)> chunk_done;
  std::function<void(const check::check_step&)> step;
  if (a.cfg.progress) {
    chunk_done = [lines](std::int64_t done) { lines->chunk_done(done); };
    step = [lines](const check::check_step& s) { lines->step(s); };
  }
  const auto results = co_await shoal::with_stop_token(
      a.interrupt.get_token(), check::check_consistency(db, options, chunk_done, step));
  std::printf("%s", check::format_results(results).c_str());
  if (a.console.interrupted()) co_return a.console.interrupt_status();
  if (ran != nullptr) ran->consistency = consistency_of(results);
  const bool passed = check::all_passed(results);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  std::printf("check: %s in %.1f s\n", passed ? "all conditions passed" : "FAILED", took.count());
  std::fflush(stdout);
  co_return passed ? exit_ok : exit_failed;
}

shoal::task<int> clean_command(app& a, driver::database& db) {
  const driver::outcome done = co_await schema::drop_schema(db);
  if (!done.ok()) co_return fail("clean", done.message);
  std::printf("clean: every table dropped\n");
  std::fflush(stdout);
  static_cast<void>(a);
  co_return exit_ok;
}

// The default job: a fresh database, loaded, run, checked, then cleaned unless --keep.
// The next step may start: the last one succeeded and no Ctrl-C came.
bool go_on(const app& a, int& status) {
  if (status == exit_ok && a.interrupt.stop_requested()) status = a.console.interrupt_status();
  return status == exit_ok;
}

// The run's summary and reports come after the consistency check, so that they say what it
// found.
// A run judged FAIL still gets its check and clean-up; its status is kept.
shoal::task<int> all_commands(app& a, driver::database& db) {
  int status = co_await clean_command(a, db);
  if (go_on(a, status)) status = co_await init_command(a, db);
  if (go_on(a, status)) status = co_await load_command(a, db);
  std::optional<run::run_result> ran;
  int run_status = exit_ok;
  if (go_on(a, status)) status = run_status = co_await run_step(a, db, ran);
  if (go_on(a, status)) status = co_await check_command(a, db, ran ? &*ran : nullptr);
  int judged = ran ? finish_run(a, *ran, db.describe(), run_status) : exit_ok;
  if (judged != exit_judged && judged != exit_ok && status == exit_ok) status = judged;
  if (judged != exit_judged) judged = exit_ok;
  if (go_on(a, status) && !a.cfg.keep) status = co_await clean_command(a, db);
  co_return status == exit_ok ? judged : status;
}

shoal::task<int> dispatch(app& a, driver::database& db) {
  int status = exit_ok;
  switch (a.cfg.cmd) {
    case cli::command::init:
      status = co_await init_command(a, db);
      break;
    case cli::command::load:
      status = co_await load_command(a, db);
      break;
    case cli::command::run:
      status = co_await run_command(a, db);
      break;
    case cli::command::check:
      status = co_await check_command(a, db);
      break;
    case cli::command::clean:
      status = co_await clean_command(a, db);
      break;
    default:
      status = co_await all_commands(a, db);
      break;
  }
  co_return status;
}

driver::database_options database_options(const cli::config& cfg) {
  driver::database_options options;
  options.target = cfg.db.text;
  options.connections = cfg.connections;
  options.level = cfg.isolation;
  options.warehouses = cfg.warehouses;
  // Only init and the default job make a database; check, run, load and clean never create
  // an empty SQLite file where a path was mistyped.
  options.create_sqlite_file = cfg.cmd == cli::command::init || cfg.cmd == cli::command::all;
  return options;
}

// --metrics-addr: listens now, before any work, on a worker (the listener's reactor); says
// where on stderr. False, saying why, when the address cannot be listened on.
bool listen_for_metrics(app& a, std::optional<shoal::stream_listener>& listener) {
  if (!a.cfg.metrics_addr) return true;
  const cli::listen_address& at = *a.cfg.metrics_addr;
  auto bound = metrics::listen(at.host, at.port);
  if (auto* why = std::get_if<std::string>(&bound)) {
    std::fprintf(stderr, "shoal-tpcc: --metrics-addr %s:%u: %s (checked before starting)\n",
                 at.host.c_str(), static_cast<unsigned>(at.port), why->c_str());
    return false;
  }
  listener.emplace(std::move(std::get<shoal::stream_listener>(bound)));
  a.metrics = &*listener;
  std::fprintf(stderr, "metrics: http://%s:%u/metrics\n", at.host.c_str(),
               static_cast<unsigned>(listener->port()));
  std::fflush(stderr);
  return true;
}

shoal::task<int> app_main(app& a) {
  co_await a.pool.schedule();
  std::optional<shoal::stream_listener> metrics_listener;  // closed here, on a worker
  if (!listen_for_metrics(a, metrics_listener)) co_return exit_usage;
  auto opened = co_await driver::open_database(database_options(a.cfg));
  if (auto* refused = std::get_if<driver::outcome>(&opened)) {
    co_return fail("cannot open " + driver::redact(a.cfg.db.text), refused->message);
  }
  std::unique_ptr<driver::database> db = std::move(std::get<0>(opened));
  a.console.set_interrupt([&a] { a.interrupt.request_stop(); });
  const int status = co_await dispatch(a, *db);
  co_await db->close();
  a.metrics = nullptr;
  co_return status;
}

int run_app(const cli::config& cfg, std::string command_line) {
  cli::block_signals();
  shoal::thread_pool_options options;
  options.workers = cfg.workers;
  shoal::thread_pool pool(options);
  pool.start();
  cli::console console(std::chrono::seconds(1), cfg.progress);
  console.start();
  app a{cfg, std::move(command_line), pool, console, {}, nullptr};
  int status = exit_failed;
  try {
    status = shoal::sync_wait(app_main(a));
  } catch (const std::exception& e) {
    status = fail("error", e.what());
  }
  console.stop();  // its handlers refer to `a`
  shoal::sync_wait(pool.stop());
  return status;
}

// A result file that cannot be read or merged is bad input: exit status 2.
int refuse_merge(const std::string& message) {
  fail("merge", message);
  return exit_usage;
}

// shoal-tpcc merge a.json b.json ...: one result from several shards' (report/merge.hpp).
int merge_command(const cli::config& cfg) {
  std::vector<report::merge_input> inputs;
  for (const std::string& file : cfg.inputs) {
    auto read = report::read_json(file);
    if (auto* error = std::get_if<std::string>(&read)) return refuse_merge(*error);
    inputs.push_back({file, std::move(std::get<report::loaded_result>(read))});
  }
  auto merged = report::merge_results(inputs);
  if (auto* error = std::get_if<std::string>(&merged)) return refuse_merge(*error);
  const report::merged_result& m = std::get<report::merged_result>(merged);
  for (const std::string& note : m.notes) std::printf("merge: %s\n", note.c_str());
  std::printf("%s", report::format_summary(m.result, m.context.target).c_str());
  std::fflush(stdout);
  const bool reports = write_report_files(cfg, m.result, m.context.target);  // --html, --hdr-log
  const bool json = write_result_json(cfg, m.result, m.context.target);
  return reports && json ? exit_ok : exit_failed;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  auto parsed = cli::parse(args);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::fprintf(stderr, "shoal-tpcc: %s\nTry 'shoal-tpcc --help'.\n", error->c_str());
    return exit_usage;
  }
  cli::config cfg = std::get<cli::config>(parsed);
  if (cfg.cmd == cli::command::help) {
    const std::string text = cfg.help_topic ? cli::usage(*cfg.help_topic) : cli::usage();
    std::printf("%s", text.c_str());
    return exit_ok;
  }
  if (cfg.cmd == cli::command::version) {
    std::printf("shoal-tpcc %s (commit %s)\n", SHOAL_TPCC_VERSION, SHOAL_TPCC_COMMIT);
    return exit_ok;
  }
  if (auto wrong = cli::check_output_paths(cfg)) {
    std::fprintf(stderr, "shoal-tpcc: %s\n", wrong->c_str());
    return exit_usage;
  }
  if (cfg.cmd == cli::command::merge) return merge_command(cfg);  // no database, no pool
  if (cfg.cmd == cli::command::load && cfg.dry_run) {
    std::printf("%s", loader::format_estimate(std::max<std::int64_t>(1, cfg.warehouses)).c_str());
    return exit_ok;
  }
  cli::resolve_defaults(cfg);
  return run_app(cfg, cli::command_line(args));
}
