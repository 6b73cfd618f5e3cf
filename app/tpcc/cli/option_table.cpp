// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/option_table.cpp: the options, their values and the commands (see
// option_table.hpp).
#include "cli/option_table.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <array>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <variant>
#include <vector>

#include "cli/schedule.hpp"
#include "cli/start_at.hpp"
#include "cli/values.hpp"
#include "driver/target.hpp"

namespace tpcc::cli {
namespace {

using std::string_view;
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

template <class T>
std::optional<std::string> at_most(T& field, string_view text, std::int64_t max) {
  const auto v = read_integer(text);
  if (!v || *v < 0 || *v > max)
    return expected(join({"an integer from 0 to ", std::to_string(max)}));
  field = static_cast<T>(*v);
  return std::nullopt;
}

std::optional<std::string> duration(std::chrono::nanoseconds& field, string_view text) {
  const auto v = read_duration(text);
  if (!v) return expected("a duration such as 90s, 2m, 1h30m or 500ms");
  field = *v;
  return std::nullopt;
}

// --duration: an empty measurement interval measures nothing.
std::optional<std::string> set_measure(config& c, string_view text) {
  const auto v = read_duration(text);
  if (!v || v->count() == 0) return expected("a positive duration such as 90s, 10m or 1h30m");
  c.duration = *v;
  c.duration_given = true;  // --schedule refuses it
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
  c.waits_given = true;
  return std::nullopt;
}

// --rate TPM: a positive number of transactions per minute, at most 10^9 (the terminals' share
// is checked once their count is known: options.cpp, run/run.cpp).
std::optional<std::string> set_rate(config& c, string_view text) {
  const auto v = read_number(text);
  if (!v || !(*v > 0) || *v > 1e9) {
    return expected("a rate in transactions per minute above 0 and at most 1000000000");
  }
  c.rate_tpm = *v;
  return std::nullopt;
}

// --schedule STEPS and --sweep FROM:TO:STEPS[:DURATION] (cli/schedule.hpp): the later wins.
std::optional<std::string> set_steps(config& c,
                                     std::variant<std::vector<schedule_step>, std::string> read) {
  if (auto* wrong = std::get_if<std::string>(&read)) return std::move(*wrong);
  c.schedule = std::move(std::get<std::vector<schedule_step>>(read));
  return std::nullopt;
}

// --knee-p90 DURATION: positive.
std::optional<std::string> set_knee_p90(config& c, string_view text) {
  const auto v = read_duration(text);
  if (!v || v->count() <= 0) return expected("a positive duration such as 500ms or 2s");
  c.knee_p90 = *v;
  return std::nullopt;
}

// --seed: any 64-bit seed but 0 (0 means "from the clock"), as every result prints it.
std::optional<std::string> set_seed(config& c, string_view text) {
  std::uint64_t v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || v == 0) {
    return expected("an integer from 1 to 18446744073709551615");
  }
  c.seed = v;
  return std::nullopt;
}

std::optional<std::string> set_db(config& c, string_view text) {
  auto parsed = driver::parse_target(text);
  if (auto* wrong = std::get_if<std::string>(&parsed)) return std::move(*wrong);
  c.endpoints.push_back(std::move(std::get<driver::target>(parsed)));  // cli/endpoints.hpp
  c.db = c.endpoints.front();
  return std::nullopt;
}

std::optional<std::string> set_json(config& c, string_view text) {
  if (text.empty()) return expected("a file name");
  c.json_path = std::string(text);
  return std::nullopt;
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
  if (*at - std::chrono::system_clock::now() > std::chrono::hours(24)) {
    return expected("a time at most 24 h ahead (a later one is surely a mistake)");
  }
  c.start_at = *at;
  return std::nullopt;
}

// --metrics-addr HOST:PORT: a numeric IPv4 address (or localhost; an empty HOST is 0.0.0.0,
// every interface) and a port from 0 (any free one) to 65535.
std::optional<std::string> set_metrics_addr(config& c, string_view text) {
  const auto colon = text.rfind(':');
  if (colon == string_view::npos) return expected("HOST:PORT, such as 127.0.0.1:9100");
  std::string host(text.substr(0, colon));
  if (host.empty()) host = "0.0.0.0";
  if (host == "localhost") host = "127.0.0.1";
  in_addr parsed{};
  if (::inet_pton(AF_INET, host.c_str(), &parsed) != 1) {
    return expected("HOST:PORT with HOST a numeric IPv4 address (127.0.0.1, 0.0.0.0) or localhost");
  }
  const auto port = read_integer(text.substr(colon + 1));
  if (!port || *port < 0 || *port > 65535) {
    return expected("HOST:PORT with PORT from 0 (any free port) to 65535");
  }
  c.metrics_addr =
      listen_address{.host = std::move(host), .port = static_cast<std::uint16_t>(*port)};
  return std::nullopt;
}

// --fail-if-slower PCT: a percentage from 0 to 1000.
std::optional<std::string> set_fail_if_slower(config& c, string_view text) {
  const auto v = read_number(text);
  if (!v || *v < 0 || *v > 1000) return expected("a percentage from 0 to 1000, such as 5");
  c.fail_if_slower = v;
  return std::nullopt;
}

// Which commands an option applies to.
constexpr command_set job = bit(command::all);
constexpr command_set running = job | bit(command::run);
constexpr command_set reporting = running | bit(command::merge);
constexpr command_set comparing = bit(command::compare);
constexpr command_set loading = job | bit(command::load);
constexpr command_set checking = job | bit(command::check);
constexpr command_set seeded = running | bit(command::load);
constexpr command_set sized =
    running | bit(command::init) | bit(command::load) | bit(command::check);
constexpr command_set databases = sized | bit(command::clean);
constexpr command_set any = 0xFFFF;

constexpr std::int64_t max_warehouses = 1'000'000;

constexpr auto options = std::to_array<option>({
    {"db", "TARGET",
     "sqlite:PATH (an embedded file), a PostgreSQL URI (postgresql://user@host/db) or "
     "key=value string, or a MySQL/MariaDB URI (mysql://user:pass@host:3306/db, "
     "?socket=PATH for a Unix socket, ?protocol=prepared for server-side prepared statements "
     "instead of one multi-statement query per batch). Default: "
     "sqlite:shoal-tpcc.db. Capacity mode: sim:latency=5ms "
     "answers every round trip after 5 ms without any database (`run` only; measures the "
     "client, labelled SIMULATED). Given more than once (`run` only): several endpoints of one "
     "database (docs/tpcc/endpoints.md), each with its own connections, the warehouses split "
     "among them in contiguous ranges",
     set_db, databases},
    {"warehouses", "N",
     "Warehouses to load (default 1; resuming a broken load, the count it recorded), or to "
     "run and check (must match the load; default: as loaded). The default job loads 2.",
     [](config& c, string_view t) { return positive(c.warehouses, t, max_warehouses); }, sized},
    {"terminals", "N",
     "Terminals per warehouse. Default: 10, the spec's (clause 4.2.2); any other count runs "
     "and is measured, but the verdict says it is not a TPC-C result; 0 (with "
     "--analytic-streams only): no terminals, the analytic side alone",
     [](config& c, string_view t) { return at_most(c.terminals, t, 1000); }, running},
    {"analytic-streams", "N",
     "CH-benCHmark: N streams of its 22 analytic queries beside the terminals, each on a "
     "connection of its own, from the warm-up to the end of the measurement interval (the "
     "queries completed in it count; those in flight at the end are cancelled); the result "
     "adds each query's count, latency and rows, and queries per hour "
     "(docs/tpcc/ch-benchmark.md). Needs the CH tables (init and load with --ch). Default: 0",
     [](config& c, string_view t) { return at_most(c.analytic_streams, t, 1000); }, running},
    {"connections", "N",
     "Connection pool size. Default: 16 (PostgreSQL), 1 (SQLite), 4096 (sim:, so the pool "
     "never limits a capacity run)",
     [](config& c, string_view t) { return positive(c.connections, t, 100000); }, databases},
    {"workers", "N", "Worker threads. Default: one per hardware thread",
     [](config& c, string_view t) { return positive(c.workers, t, 1024); }, databases},
    {"warmup", "DURATION", "Warm-up before the measurement interval. Default: 30s",
     [](config& c, string_view t) { return duration(c.warmup, t); }, running},
    {"duration", "DURATION", "Measurement interval. Default: 2m", set_measure, running},
    {"drain", "DURATION",
     "At the end, how long transactions in flight may take to finish. Default: 30s",
     [](config& c, string_view t) { return duration(c.drain, t); }, running},
    {"interval", "DURATION",
     "Step of the interval series (throughput and latency over time) and of the live "
     "display. Default: 1s",
     set_interval, running},
    {"client-lag-limit", "DURATION",
     "Probe timer lateness or ready-queue delay (p99 over the measurement interval) above "
     "this marks the result client-bound. Default: 50ms",
     set_client_lag_limit, running},
    {"shard", "I/N",
     "Run the terminals of shard I of N only (0-based; a contiguous warehouse range); remote "
     "warehouses are still drawn from all. load: load shard I's warehouses only (ITEM by "
     "shard 0; needs --warehouses), so that N processes load one database together; a plain "
     "`load` then builds the indexes (docs/tpcc/split-load.md). Default: 0/1",
     set_shard, running | bit(command::load)},
    {"start-at", "TIME",
     "Start the warm-up at TIME (2026-11-21T10:00:00Z or Unix epoch seconds, at most 24 h "
     "ahead), so that shards start together; a countdown is printed, Ctrl-C cancels the wait",
     set_start_at, running},
    {"wait-scale", "F",
     "Multiply keying and think times by F. Anything but 1 is not TPC-C and is labelled so",
     set_wait_scale, running},
    {"no-wait", "", "No keying or think times (a stress test; not TPC-C, labelled so)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.wait_scale = 0;
       c.waits_given = true;
       return std::nullopt;
     },
     running},
    {"rate", "TPM",
     "Offer TPM transactions per minute (every type) from all terminals together, as Poisson "
     "arrivals (each terminal's next start an exponential gap of mean terminals x 60 / TPM s "
     "after its last intended one) instead of keying and think times; latencies count from the "
     "intended start, and the report says offered against achieved and any backlog. Not "
     "TPC-C, labelled so; not with --no-wait or --wait-scale; at most 60000 per terminal",
     set_rate, running},
    {"schedule", "STEPS",
     "Rate steps over the measurement interval, one after another: "
     "[rate=]TPM:DURATION[:streams=N],... "
     "(rate=30000:60s,rate=60000:60s). Paced as --rate, each step measured as its own window "
     "after a settle time (a quarter of the step, at most 5 s), with its figures, whether its "
     "backlog grew, and the knee "
     "(docs/tpcc/usage.md). The warm-up runs at the first step's rate; the steps' sum is the "
     "measurement interval (not with --duration, --rate, --no-wait or --wait-scale); at most "
     "100 steps, 24 h. Not TPC-C, labelled so",
     [](config& c, string_view t) { return set_steps(c, parse_schedule(t)); }, running},
    {"sweep", "FROM:TO:N[:DURATION]",
     "--schedule of N evenly spaced rates from FROM to TO tpm, DURATION each (default 60s): "
     "30000:120000:4:60s is rate=30000:60s,...,rate=120000:60s",
     [](config& c, string_view t) { return set_steps(c, parse_sweep(t)); }, running},
    {"knee-p90", "DURATION",
     "With --schedule: the first step whose worst p90 (any type) is over DURATION is the knee, "
     "if throughput did not stop growing nor a backlog grow before it",
     set_knee_p90, running},
    {"procedures", "",
     "init: create one stored procedure per transaction type (PostgreSQL functions, MySQL/MariaDB "
     "procedures); run: each transaction one call of it instead of the client's statements. "
     "Not on SQLite or sim:. Every output names the mode (docs/tpcc/procedures.md)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.procedures = true;
       return std::nullopt;
     },
     running | bit(command::init)},
    {"deliverers", "N", "Coroutines running deferred Deliveries. Default: connections / 8, >= 1",
     [](config& c, string_view t) { return positive(c.deliverers, t, 10000); }, running},
    {"load-parallel", "N", "Warehouses loaded at once. Default: connections, at most 8",
     [](config& c, string_view t) { return positive(c.load_parallel, t, 1024); }, loading},
    {"seed", "N",
     "Seed of the loader's or the terminals' random draws; every result prints it, so the same "
     "inputs can be drawn again. Default: from the clock. The run's NURand constants come from "
     "the load's, so shards need no shared seed",
     set_seed, seeded},
    {"isolation", "LEVEL",
     "read-committed (default), repeatable-read or serializable. The default is PostgreSQL's "
     "own and what TPC-C's profiles need with their row locks and in-place updates (clause "
     "3.4; docs/tpcc/spec-map.md says which guarantee holds at which level); stricter levels "
     "add serialization failures (40001, 40P01), retried and counted. Every output states it",
     set_isolation, databases},
    {"check-chunk", "N", "Warehouses per consistency-check query. Default: 10",
     [](config& c, string_view t) { return positive(c.check_chunk, t, max_warehouses); }, checking},
    {"delivery-log", "FILE",
     "Write the deferred Delivery result file (clause 2.7.2.3): one line per deferred Delivery "
     "with its queue and completion times, warehouse, carrier and per district the order "
     "delivered or `skipped` (docs/tpcc/results.md)",
     [](config& c, string_view t) { return set_path(c.delivery_log_path, t); }, running},
    {"html", "FILE",
     "Write the run as a self-contained HTML page: throughput and latency over time, the "
     "latency distribution, the per-type table",
     [](config& c, string_view t) { return set_path(c.html_path, t); }, reporting | comparing},
    {"hdr-log", "FILE",
     "Write the latency series as an HdrHistogram interval log (microseconds; tags such "
     "as NewOrder-response)",
     [](config& c, string_view t) { return set_path(c.hdr_log_path, t); }, reporting},
    {"csv", "FILE",
     "Write the interval series as CSV: one row per interval and transaction type (phase, "
     "outcome counts, retries, p50/p90/p99/max ms); the run's distinct errors beside it, in "
     "FILE.errors.csv. load --csv DIR: write each table as DIR/<table>.csv instead of loading, "
     "for the database's own importer; connects to nothing (docs/tpcc/csv-export.md)",
     [](config& c, string_view t) { return set_path(c.csv_path, t); },
     reporting | bit(command::load)},
    {"metrics-addr", "HOST:PORT",
     "Serve Prometheus metrics (text format 0.0.4) at http://HOST:PORT/metrics while the run "
     "runs: transactions per type and outcome, retries, latency histograms, phase, tpmC, "
     "efficiency, the client's lag. HOST a numeric IPv4 address or localhost; port 0 picks a "
     "free one; the address is printed on stderr. Default: none",
     set_metrics_addr, bit(command::run)},
    {"dry-run", "",
     "load: print the rows and bytes each table would get, and their total; "
     "connect to nothing, write nothing",
     [](config& c, string_view) -> std::optional<std::string> {
       c.dry_run = true;
       return std::nullopt;
     },
     bit(command::load)},
    {"ch", "",
     "CH-benCHmark: init and load also create and fill its SUPPLIER (10,000 rows), NATION (62) "
     "and REGION (5) tables (docs/tpcc/ch-benchmark.md); TPC-C runs on them unchanged",
     [](config& c, string_view) -> std::optional<std::string> {
       c.ch = true;
       return std::nullopt;
     },
     loading | bit(command::init)},
    {"keep", "", "Default job: keep the data at the end instead of cleaning up",
     [](config& c, string_view) -> std::optional<std::string> {
       c.keep = true;
       return std::nullopt;
     },
     job},
    {"tolerate-errors", "",
     "Exit 0 even when the verdict fails or transactions failed with non-retryable errors "
     "(the report still counts and shows every failure)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.tolerate_errors = true;
       return std::nullopt;
     },
     running},
    {"no-progress", "", "Do not print progress lines while loading and running",
     [](config& c, string_view) -> std::optional<std::string> {
       c.progress = false;
       return std::nullopt;
     },
     databases},
    {"no-tui", "", "Plain progress lines instead of the dashboard (the default on a terminal)",
     [](config& c, string_view) -> std::optional<std::string> {
       c.tui = false;
       return std::nullopt;
     },
     databases},
    {"json", "FILE", "Write the result (every figure, histograms, series) as JSON to FILE",
     set_json, reporting | comparing},
    {"fail-if-slower", "PCT",
     "compare: exit 4 when a later file is slower than the first beyond noise (the two "
     "intervals apart) by more than PCT % of the first's figure: its tpmC lower, or a "
     "transaction type's p90 response time higher (docs/tpcc/compare.md)",
     set_fail_if_slower, comparing},
    {"config", "FILE",
     "Read options from a TOML file whose keys are the long option names (duration = \"10m\", "
     "warehouses = 100, no-tui = true); the command line overrides it",
     [](config& c, string_view t) { return set_path(c.config_path, t); }, databases | reporting},
    {"help", "", "Show this help",
     [](config& c, string_view) -> std::optional<std::string> {
       c.cmd = command::help;
       return std::nullopt;
     },
     any},
    {"version", "", "Show the version",
     [](config& c, string_view) -> std::
                                    optional<std::string> {
                                      c.cmd = command::version;
                                      return std::nullopt;
                                    },
     any},
});

constexpr auto commands = std::to_array<command_info>({
    {"", command::all,
     "init, load, run, check and clean on an embedded SQLite file (or --db), in turn",
     "shoal-tpcc --warehouses 2 --warmup 10s --duration 1m"},
    {"init", command::init, "create the tables (and distribute them on Citus)",
     "shoal-tpcc init --db postgresql://tpcc@localhost/tpcc"},
    {"load", command::load, "populate the tables (clause 4.3); resumes a broken load",
     "shoal-tpcc load --db postgresql://tpcc@localhost/tpcc --warehouses 10"},
    {"run", command::run, "run the terminals and print the result",
     "shoal-tpcc run --db postgresql://tpcc@localhost/tpcc --warmup 2m --duration 10m "
     "--json result.json --html result.html"},
    {"check", command::check, "verify consistency conditions 3.3.2.1-3.3.2.12",
     "shoal-tpcc check --db postgresql://tpcc@localhost/tpcc"},
    {"clean", command::clean, "drop every table", "shoal-tpcc clean --db sqlite:shoal-tpcc.db"},
    {"merge", command::merge, "add up shards' results: merge a.json ... [--json F] [--html F]",
     "shoal-tpcc merge shard0.json shard1.json --json all.json --html all.html"},
    {"compare", command::compare,
     "results side by side, each against the first: what differs beyond noise, and why",
     "shoal-tpcc compare before.json after.json --html diff.html --fail-if-slower 5"},
});

}  // namespace

std::span<const option> option_table() { return options; }

std::span<const command_info> command_table() { return commands; }

const option* find_option(string_view name) {
  for (const option& o : options) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

std::optional<command> find_command(string_view name) {
  for (const command_info& c : commands) {
    if (!c.name.empty() && c.name == name) return c.cmd;
  }
  return std::nullopt;
}

const command_info& describe(command c) {
  for (const command_info& info : commands) {
    if (info.cmd == c) return info;
  }
  return commands[0];
}

std::string command_phrase(command c) {
  if (c == command::help) return "`shoal-tpcc help`";
  const command_info& info = describe(c);
  if (info.name.empty()) return "the default job (no command)";
  return join({"`shoal-tpcc ", info.name, "`"});
}

std::string commands_phrase(command_set set) {
  std::string out;
  for (const command_info& c : commands) {
    if ((set & bit(c.cmd)) == 0) continue;
    if (!out.empty()) out += ", ";
    out += c.name.empty() ? string_view("the default job") : c.name;
  }
  return out;
}

}  // namespace tpcc::cli
