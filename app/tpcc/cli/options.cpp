// app/tpcc/cli/options.cpp: the options table, parsing and usage (see options.hpp).
#include "cli/options.hpp"

#include <array>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "cli/start_at.hpp"
#include "cli/values.hpp"
#include "driver/target.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;
// Applies a value to the config; returns what was wrong with it, or nullopt.
using setter = std::optional<std::string> (*)(config&, string_view);

struct option {
  string_view name;   // without the leading --
  string_view value;  // the value's placeholder; empty for a flag
  string_view help;
  setter set;
};

// Concatenates text pieces (g++ 12 at -O3 warns falsely on `"literal" + std::string(...)`).
std::string join(std::initializer_list<string_view> parts) {
  std::string out;
  for (const string_view p : parts) out += p;
  return out;
}

std::optional<std::string> expected(string_view what) { return join({"expects ", what}); }

template <class T>
std::optional<std::string> positive(T& field, string_view text, std::int64_t max) {
  const auto v = read_integer(text);
  if (!v || *v < 1 || *v > max) {
    return expected(join({"an integer from 1 to ", std::to_string(max)}));
  }
  field = static_cast<T>(*v);
  return std::nullopt;
}

std::optional<std::string> duration(std::chrono::nanoseconds& field, string_view text) {
  const auto v = read_duration(text);
  if (!v) return expected("a duration such as 90s, 2m, 1h or 500ms");
  field = *v;
  return std::nullopt;
}

std::optional<std::string> set_isolation(config& c, string_view text) {
  if (text == "read-committed") {
    c.isolation = driver::isolation::read_committed;
  } else if (text == "repeatable-read") {
    c.isolation = driver::isolation::repeatable_read;
  } else if (text == "serializable") {
    c.isolation = driver::isolation::serializable;
  } else {
    return expected("read-committed, repeatable-read or serializable");
  }
  return std::nullopt;
}

std::optional<std::string> set_wait_scale(config& c, string_view text) {
  const auto v = read_number(text);
  if (!v || *v < 0 || *v > 1000) return expected("a number from 0 to 1000");
  c.wait_scale = *v;
  return std::nullopt;
}

std::optional<std::string> set_seed(config& c, string_view text) {
  const auto v = read_integer(text);
  if (!v || *v < 1) return expected("a positive integer");
  c.seed = static_cast<std::uint64_t>(*v);
  return std::nullopt;
}

std::optional<std::string> set_db(config& c, string_view text) {
  auto parsed = driver::parse_target(text);
  if (auto* wrong = std::get_if<std::string>(&parsed)) return std::move(*wrong);
  c.db = std::move(std::get<driver::target>(parsed));
  return std::nullopt;
}

// The simulated database holds no data: only `run` means anything on it.
std::optional<std::string> sim_only_runs(const config& c) {
  if (!c.is_sim() || c.cmd == command::run || c.cmd == command::help || c.cmd == command::version) {
    return std::nullopt;
  }
  return join({"--db ", c.db.text,
               " is the simulated database of the capacity mode: it holds no data, so only "
               "`shoal-tpcc run` works on it (init, load, check, clean and the default job "
               "do not)"});
}

std::optional<std::string> set_json(config& c, string_view text) {
  if (text.empty()) return expected("a file name");
  c.json_path = std::string(text);
  return std::nullopt;
}

// `merge` takes result files; nothing else takes positional arguments.
std::optional<std::string> merge_inputs_given(const config& c) {
  if (c.cmd != command::merge || !c.inputs.empty()) return std::nullopt;
  return std::string("merge needs result files: shoal-tpcc merge a.json b.json ...");
}

// --html FILE, --hdr-log FILE: where a report goes.
std::optional<std::string> set_path(std::string& field, string_view text) {
  if (text.empty()) return expected("a file name");
  field = std::string(text);
  return std::nullopt;
}

// --interval: the step of the series and the displays; at least the probes' 100 ms.
std::optional<std::string> set_interval(config& c, string_view text) {
  const auto v = read_duration(text);
  if (!v || *v < std::chrono::milliseconds(100) || *v > std::chrono::hours(1)) {
    return expected("a duration from 100ms to 1h, such as 1s or 500ms");
  }
  c.interval = *v;
  return std::nullopt;
}

// --client-lag-limit: a positive duration; microseconds (us) accepted too.
std::optional<std::string> set_client_lag_limit(config& c, string_view text) {
  std::optional<std::chrono::nanoseconds> v;
  if (text.size() > 2 && text.ends_with("us")) {
    const auto us = read_number(text.substr(0, text.size() - 2));
    if (us && *us >= 0 && *us <= 1e12) v = std::chrono::nanoseconds(std::llround(*us * 1000));
  } else {
    v = read_duration(text);
  }
  if (!v || v->count() <= 0) return expected("a positive duration such as 50ms, 200us or 1s");
  c.client_lag_limit = *v;
  return std::nullopt;
}

// --shard i/n: shard i (0-based) of n.
std::optional<std::string> set_shard(config& c, string_view text) {
  constexpr std::int64_t max_shards = 1'000'000;
  const auto slash = text.find('/');
  std::optional<std::int64_t> i, n;
  if (slash != string_view::npos) {
    i = read_integer(text.substr(0, slash));
    n = read_integer(text.substr(slash + 1));
  }
  if (!i || !n || *n < 1 || *n > max_shards || *i < 0 || *i >= *n) {
    return expected("I/N with 0 <= I < N, such as 0/4");
  }
  c.shard_index = *i;
  c.shard_count = *n;
  return std::nullopt;
}

std::optional<std::string> set_start_at(config& c, string_view text) {
  const auto at = parse_start_at(text);
  if (!at) {
    return expected("an ISO 8601 UTC time such as 2026-11-21T10:00:00Z, or Unix epoch seconds");
  }
  c.start_at = *at;
  return std::nullopt;
}

constexpr std::int64_t max_warehouses = 1'000'000;

const std::array<option, 28> options{{
    {"db", "TARGET",
     "sqlite:PATH (an embedded file), or a PostgreSQL URI (postgresql://user@host/db) or "
     "key=value string. Default: sqlite:shoal-tpcc.db. Capacity mode: sim:latency=5ms "
     "answers every round trip after 5 ms without any database (`run` only; measures the "
     "client, labelled SIMULATED)",
     set_db},
    {"warehouses", "N",
     "Warehouses to load, or to run (must match the load; default: as loaded). The default "
     "job loads 2.",
     [](config& c, string_view t) { return positive(c.warehouses, t, max_warehouses); }},
    {"connections", "N",
     "Connection pool size. Default: 16 (PostgreSQL), 1 (SQLite), 4096 (sim:, so the pool "
     "never limits a capacity run)",
     [](config& c, string_view t) { return positive(c.connections, t, 100000); }},
    {"workers", "N", "Worker threads. Default: one per hardware thread",
     [](config& c, string_view t) { return positive(c.workers, t, 1024); }},
    {"warmup", "DURATION", "Warm-up before the measurement interval. Default: 30s",
     [](config& c, string_view t) { return duration(c.warmup, t); }},
    {"duration", "DURATION", "Measurement interval. Default: 2m",
     [](config& c, string_view t) { return duration(c.duration, t); }},
    {"drain", "DURATION",
     "At the end, how long transactions in flight may take to finish. Default: 30s",
     [](config& c, string_view t) { return duration(c.drain, t); }},
    {"interval", "DURATION",
     "Step of the interval series (throughput and latency over time) and of the live "
     "display. Default: 1s",
     set_interval},
    {"client-lag-limit", "DURATION",
     "Probe timer lateness or ready-queue delay (p99 over the measurement interval) above "
     "this marks the result client-bound. Default: 50ms",
     set_client_lag_limit},
    {"shard", "I/N",
     "Run the terminals of shard I of N only (0-based; a contiguous warehouse range); remote "
     "warehouses are still drawn from all. Default: 0/1",
     set_shard},
    {"start-at", "TIME",
     "Start the warm-up at TIME (2026-11-21T10:00:00Z or Unix epoch seconds), so that shards "
     "start together; Ctrl-C cancels the wait",
     set_start_at},
    {"wait-scale", "F",
     "Multiply keying and think times by F. Anything but 1 is not TPC-C and is labelled so",
     set_wait_scale},
    {"no-wait", "", "No keying or think times (a stress test; not TPC-C, labelled so)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.wait_scale = 0;
       return std::nullopt;
     }},
    {"deliverers", "N", "Coroutines running deferred Deliveries. Default: connections / 8, >= 1",
     [](config& c, string_view t) { return positive(c.deliverers, t, 10000); }},
    {"load-parallel", "N", "Warehouses loaded at once. Default: connections, at most 8",
     [](config& c, string_view t) { return positive(c.load_parallel, t, 1024); }},
    {"seed", "N", "Seed of every random draw (a run is then repeatable). Default: the clock",
     set_seed},
    {"isolation", "LEVEL",
     "read-committed (default), repeatable-read or serializable. The default is PostgreSQL's "
     "own and what TPC-C's profiles need with their row locks and in-place updates (clause "
     "3.4; docs/tpcc/spec-map.md says which guarantee holds at which level); stricter levels "
     "add serialization failures (40001, 40P01), retried and counted. Every output states it",
     set_isolation},
    {"check-chunk", "N", "Warehouses per consistency-check query. Default: 10",
     [](config& c, string_view t) { return positive(c.check_chunk, t, max_warehouses); }},
    {"delivery-log", "FILE",
     "Write the deferred Delivery result file (clause 2.7.2.3): one line per deferred Delivery "
     "with its queue and completion times, warehouse, carrier and per district the order "
     "delivered or `skipped` (docs/tpcc/results.md)",
     [](config& c, string_view t) { return set_path(c.delivery_log_path, t); }},
    {"html", "FILE",
     "Write the run as a self-contained HTML page: throughput and latency over time, the "
     "latency distribution, the per-type table",
     [](config& c, string_view t) { return set_path(c.html_path, t); }},
    {"hdr-log", "FILE",
     "Write the latency series as an HdrHistogram interval log (microseconds; tags such "
     "as NewOrder-response)",
     [](config& c, string_view t) { return set_path(c.hdr_log_path, t); }},
    {"keep", "", "Default job: keep the data at the end instead of cleaning up",
     [](config& c, string_view) -> std::optional<std::string> {
       c.keep = true;
       return std::nullopt;
     }},
    {"tolerate-errors", "",
     "Exit 0 even when the verdict fails or transactions failed with non-retryable errors "
     "(the report still counts and shows every failure)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.tolerate_errors = true;
       return std::nullopt;
     }},
    {"no-progress", "", "Do not print progress lines while loading and running",
     [](config& c, string_view) -> std::optional<std::string> {
       c.progress = false;
       return std::nullopt;
     }},
    {"no-tui", "", "Plain progress lines instead of the dashboard (the default on a terminal)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.tui = false;
       return std::nullopt;
     }},
    {"json", "FILE", "Write the result (every figure, histograms, series) as JSON to FILE",
     set_json},
    {"help", "", "Show this help",
     [](config& c, string_view) -> std::optional<std::string> {
       c.cmd = command::help;
       return std::nullopt;
     }},
    {"version", "", "Show the version",
     [](config& c, string_view) -> std::optional<std::string> {
       c.cmd = command::version;
       return std::nullopt;
     }},
}};

struct command_name {
  string_view name;
  command cmd;
  string_view help;
};

constexpr std::array<command_name, 6> commands{{
    {"init", command::init, "create the tables (and distribute them on Citus)"},
    {"load", command::load, "populate the tables (clause 4.3); resumes a broken load"},
    {"run", command::run, "run the terminals and print the result"},
    {"check", command::check, "verify consistency conditions 3.3.2.1-3.3.2.12"},
    {"clean", command::clean, "drop every table"},
    {"merge", command::merge, "add up shards' results: merge a.json ... [--json F] [--html F]"},
}};

const option* find(string_view name) {
  for (const option& o : options) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

std::optional<command> find_command(string_view name) {
  for (const command_name& c : commands) {
    if (c.name == name) return c.cmd;
  }
  return std::nullopt;
}

// Applies args[i] (and its value); advances i. Returns an error line or nullopt.
std::optional<std::string> apply(config& c, std::span<const string_view> args, std::size_t& i) {
  string_view arg = args[i];
  if (!arg.starts_with("--") && c.cmd == command::merge) {
    c.inputs.emplace_back(arg);
    return std::nullopt;
  }
  if (!arg.starts_with("--")) return join({"unexpected argument '", arg, "'"});
  arg.remove_prefix(2);
  std::optional<string_view> value;
  if (const auto eq = arg.find('='); eq != string_view::npos) {
    value = arg.substr(eq + 1);
    arg = arg.substr(0, eq);
  }
  const option* o = find(arg);
  if (o == nullptr) return join({"unknown option --", arg});
  if (o->value.empty()) {
    if (value) return join({"option --", arg, " takes no value"});
    return o->set(c, {});
  }
  if (!value) {
    if (i + 1 >= args.size()) return join({"option --", arg, " needs a value"});
    value = args[++i];
  }
  auto error = o->set(c, *value);
  if (error) return join({"--", arg, " ", *error, ", got '", *value, "'"});
  return std::nullopt;
}

}  // namespace

parse_result parse(std::span<const string_view> args) {
  config c;
  std::size_t i = 0;
  if (!args.empty() && !args[0].starts_with("-")) {
    const auto cmd = find_command(args[0]);
    if (!cmd) return join({"unknown command '", args[0], "'"});
    c.cmd = *cmd;
    i = 1;
  }
  const command chosen = c.cmd;
  for (; i < args.size(); ++i) {
    auto error = apply(c, args, i);
    if (error) return *error;
  }
  if (c.cmd != command::help && c.cmd != command::version) c.cmd = chosen;
  if (auto missing = merge_inputs_given(c)) return *missing;
  if (auto wrong = sim_only_runs(c)) return *wrong;
  return c;
}

std::string usage() {
  std::string out =
      "Usage: shoal-tpcc [COMMAND] [OPTIONS]\n"
      "A TPC-C load generator: every terminal a coroutine.\n\n"
      "With no command: init, load, run, check and clean on an embedded SQLite file.\n\n"
      "Commands:\n";
  for (const command_name& c : commands) {
    out += join({"  ", c.name, std::string(8 - c.name.size(), ' '), c.help, "\n"});
  }
  out += "\nOptions:\n";
  for (const option& o : options) {
    std::string left = join({"  --", o.name});
    if (!o.value.empty()) left += join({" ", o.value});
    if (left.size() < 26) left.resize(26, ' ');
    out += join({left, " ", o.help, "\n"});
  }
  out +=
      "\nExit status:\n"
      "  0    done; for run: the verdict is PASS or INCONCLUSIVE and no transaction failed\n"
      "       with a non-retryable error (or --tolerate-errors)\n"
      "  1    could not do what was asked: database unreachable or refused, stopped by an\n"
      "       error, a check that failed, an output file that could not be written\n"
      "  2    bad input: an unknown command or option, a malformed value or result file\n"
      "  3    run: the verdict FAILED, or transactions failed with non-retryable errors\n"
      "       (each error is printed once with its SQLSTATE and counted in every output)\n"
      "  130  interrupted by Ctrl-C (SIGINT); the results so far are reported\n"
      "  143  terminated by SIGTERM; the results so far are reported\n";
  return out;
}

}  // namespace tpcc::cli
