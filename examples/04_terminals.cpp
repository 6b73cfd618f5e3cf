// 04_terminals: many simulated TPC-C terminals on a two-worker shoal::thread_pool.
//
// The project's main demo until shoal-tpcc exists. NO DATABASE IS INVOLVED: each "transaction"
// is ~100 ns of hashing standing in for one; what is exercised is the runtime underneath a
// TPC-C driver: a hundred thousand coroutines, each sleeping most of its life on a timer.
//
// Each terminal is a coroutine bound to worker (i % workers) with spawn_on, looping:
//   keying time (fixed) -> transaction (the CPU stand-in) -> think time (negative exponential,
//   truncated at 10x its mean, as TPC-C 5.2.5.4 prescribes).
// TPC-C's New-Order times are scaled down (default 1:100, --time-scale N), so a terminal cycles
// about every 300 ms instead of every 30 s: 100,000 terminals here put as many timer wake-ups
// per second through the runtime as 10 million real TPC-C terminals would. At 1:1000 the load
// is ten times that, more than two cores can serve: the report then shows the lag.
//
// At the end of the run, or on Ctrl-C (SIGINT closes a gate: terminals stop issuing, finish what
// is in flight, and the results so far are reported), it prints transactions per second, timer
// lateness (actual wake - deadline) p50/p99/max, peak RSS and bytes per terminal, and CPU time
// against wall time. Every terminal has finished before the pool is stopped.
//
// Usage: 04_terminals [--terminals N] [--seconds S] [--workers W] [--time-scale N]   (see --help)
// Exits 0 when the terminals ran (transactions completed, no timer woke early, no terminal ran
// off its worker); 1 when they did not; 2 on bad command-line input, naming the bad flag.
#include <shoal/clock.hpp>
#include <shoal/executor.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <latch>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;
using shoal::duration;
using shoal::time_point;

// ---- The workload: TPC-C New-Order terminal times, divided by the time scale -----------------

constexpr double keying_ms_unscaled = 18'000.0;      // TPC-C: 18 s
constexpr double think_mean_ms_unscaled = 12'000.0;  // TPC-C: mean 12 s, truncated at 10x
constexpr int transaction_rounds = 64;               // the CPU stand-in: about 100 ns

// ---- Options --------------------------------------------------------------------------------

struct options {
  std::size_t terminals = 100'000;
  double seconds = 10.0;
  std::size_t workers = 2;
  double time_scale = 100.0;  // TPC-C times are divided by this
  bool help = false;
};

constexpr std::size_t max_terminals = 10'000'000;
constexpr std::size_t max_workers = 256;
constexpr double max_seconds = 86'400.0;

// Bad command-line input; what() names the flag and says what was expected.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void print_usage() {
  std::printf(
      "usage: 04_terminals [--terminals N] [--seconds S] [--workers W]\n"
      "  Simulated TPC-C terminals on a shoal::thread_pool. No database is involved.\n"
      "  --terminals N  terminals to run (default 100000; 1 to %zu)\n"
      "  --seconds S    how long to run (default 10; more than 0, fractions allowed);\n"
      "                 Ctrl-C ends the run early and reports what was done so far\n"
      "  --workers W    worker threads (default 2; 1 to %zu)\n"
      "  --time-scale N TPC-C times divided by N (default 100; 1 to 1000000)\n",
      max_terminals, max_workers);
}

std::string bad_value(std::string_view flag, std::string_view text, const char* expected) {
  return "bad value '" + std::string(text) + "' for " + std::string(flag) + ": expected " +
         expected;
}

// All of `text` read as one number, or nullopt ("12x", "", " 12" are not numbers).
template <class Number>
std::optional<Number> parse_number(std::string_view text) {
  const std::string owned(text);  // from_chars wants a char range; this one is null-terminated
  const char* end = owned.data() + owned.size();
  Number value{};
  const auto [ptr, ec] = std::from_chars(owned.data(), end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

std::size_t parse_count(std::string_view flag, std::string_view text, std::size_t max,
                        const char* expected) {
  const std::optional<std::size_t> value = parse_number<std::size_t>(text);
  if (!value || *value < 1 || *value > max) throw usage_error(bad_value(flag, text, expected));
  return *value;
}

double parse_seconds(std::string_view flag, std::string_view text) {
  const std::optional<double> value = parse_number<double>(text);
  if (!value || !(*value > 0) || *value > max_seconds) {
    throw usage_error(bad_value(flag, text, "a number of seconds above 0, at most 86400"));
  }
  return *value;
}

void apply_flag(options& o, std::string_view flag, std::string_view value) {
  if (flag == "--terminals") {
    o.terminals = parse_count(flag, value, max_terminals, "a whole number from 1 to 10000000");
  } else if (flag == "--seconds") {
    o.seconds = parse_seconds(flag, value);
  } else if (flag == "--time-scale") {
    const std::optional<double> scale = parse_number<double>(value);
    if (!scale || !(*scale >= 1) || *scale > 1e6) {
      throw usage_error(bad_value(flag, value, "a number from 1 to 1000000"));
    }
    o.time_scale = *scale;
  } else if (flag == "--workers") {
    o.workers = parse_count(flag, value, max_workers, "a whole number from 1 to 256");
  } else {
    throw usage_error("unknown flag '" + std::string(flag) + "'");
  }
}

// Accepts `--flag value` and `--flag=value`.
options parse_options(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (const std::size_t eq = arg.find('='); arg.starts_with("--") && eq != arg.npos) {
      apply_flag(o, arg.substr(0, eq), arg.substr(eq + 1));
    } else if (arg.starts_with("--") && i + 1 < argc) {
      apply_flag(o, arg, argv[++i]);
    } else if (arg == "--terminals" || arg == "--seconds" || arg == "--workers") {
      throw usage_error(std::string(arg) + " needs a value");
    } else {
      throw usage_error("unexpected argument '" + std::string(arg) + "'");
    }
  }
  return o;
}

// ---- Lateness histogram ---------------------------------------------------------------------

// Log-linear buckets over nanoseconds: exact below 64 ns, then 32 buckets per power of two
// (about 3% resolution), covering every uint64 value in 1920 buckets (15 KiB).
class lateness_histogram {
 public:
  void record(std::uint64_t ns) noexcept {
    ++buckets_[index_of(ns)];
    ++count_;
    max_ = std::max(max_, ns);
  }
  void merge(const lateness_histogram& other) noexcept {
    for (std::size_t i = 0; i < bucket_count; ++i) buckets_[i] += other.buckets_[i];
    count_ += other.count_;
    max_ = std::max(max_, other.max_);
  }
  // The q-quantile, rounded up to its bucket's upper edge (never above the maximum).
  [[nodiscard]] std::uint64_t quantile(double q) const noexcept {
    const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < bucket_count; ++i) {
      seen += buckets_[i];
      if (seen >= std::max<std::uint64_t>(rank, 1)) return std::min(upper_edge(i), max_);
    }
    return max_;
  }
  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] std::uint64_t max() const noexcept { return max_; }

 private:
  static constexpr int sub_bits = 5;
  static constexpr std::size_t sub_buckets = std::size_t{1} << sub_bits;  // per power of two
  static constexpr std::size_t linear = 2 * sub_buckets;                  // exact below this
  static constexpr std::size_t bucket_count = (64 - sub_bits + 1) * sub_buckets;

  static std::size_t index_of(std::uint64_t v) noexcept {
    if (v < linear) return static_cast<std::size_t>(v);
    const int e = static_cast<int>(std::bit_width(v)) - 1;  // >= 6
    return static_cast<std::size_t>(e - sub_bits) * sub_buckets +
           static_cast<std::size_t>(v >> (e - sub_bits));  // mantissa in [32, 64)
  }
  static std::uint64_t upper_edge(std::size_t i) noexcept {
    if (i < linear) return i;
    const int shift = static_cast<int>(i / sub_buckets) - 1;  // e - sub_bits
    const std::uint64_t mantissa = i % sub_buckets + sub_buckets;
    return ((mantissa + 1) << shift) - 1;
  }

  std::array<std::uint64_t, bucket_count> buckets_{};
  std::uint64_t count_ = 0;
  std::uint64_t max_ = 0;
};

// ---- Run state ------------------------------------------------------------------------------

// One per worker, on its own cache lines. Written only by the terminals bound to that worker,
// hence only by its thread; main reads it after all_done.wait(), which happens-after every
// terminal's count_down().
struct alignas(64) worker_tally {
  std::uint64_t transactions = 0;
  std::uint64_t early_wakes = 0;     // a sleep that resumed before its deadline: a runtime bug
  std::uint64_t off_home = 0;        // resumed on another worker than its own: a runtime bug
  std::uint64_t idle_terminals = 0;  // finished without completing a transaction
  std::uint64_t checksum = 0;        // keeps the CPU stand-in from being optimised away
  lateness_histogram lateness;
};

struct run_state {
  run_state(shoal::thread_pool& pool, const options& o)
      : keying_ms(keying_ms_unscaled / o.time_scale),
        think_mean_ms(think_mean_ms_unscaled / o.time_scale),
        tallies(pool.size()),
        all_done(static_cast<std::ptrdiff_t>(o.terminals)) {
    for (std::size_t k = 0; k < pool.size(); ++k) homes.push_back(&pool.worker(k));
  }
  // The gate: set by main at the end of the run or on SIGINT; read by every terminal once per
  // step. Relaxed both sides: it publishes nothing, and terminals only need to see it eventually.
  std::atomic<bool> stop{false};
  const double keying_ms;
  const double think_mean_ms;
  std::vector<worker_tally> tallies;
  std::vector<shoal::executor*> homes;
  std::latch all_done;  // each terminal counts down as its last act
};

// ---- A terminal -----------------------------------------------------------------------------

struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in (0, 1]: never 0, so -log(u) is finite.
  double uniform() noexcept { return static_cast<double>((next() >> 11) + 1) * 0x1p-53; }
};

duration from_ms(double ms) {
  return std::chrono::duration_cast<duration>(std::chrono::duration<double, std::milli>(ms));
}

// TPC-C 5.2.5.4: think time = -ln(r) * mean, r uniform in (0, 1], truncated at 10x the mean.
duration think_time(splitmix64& rng, double mean_ms) {
  return from_ms(std::min(-std::log(rng.uniform()) * mean_ms, 10 * mean_ms));
}

std::uint64_t transaction(splitmix64& rng) {
  std::uint64_t x = 0;
  for (int i = 0; i < transaction_rounds; ++i) x ^= rng.next();
  return x;
}

// Called right after a sleep until `due` resumes.
void record_wake(worker_tally& tally, time_point due, const shoal::executor* home) {
  const duration late = shoal::now() - due;
  if (late < duration::zero()) ++tally.early_wakes;
  if (shoal::executor::current() != home) ++tally.off_home;
  tally.lateness.record(static_cast<std::uint64_t>(std::max(late, duration::zero()).count()));
}

shoal::task<void> terminal(run_state& run, std::size_t k, std::uint64_t seed) {
  worker_tally& tally = run.tallies[k];
  const shoal::executor* home = run.homes[k];
  splitmix64 rng{seed};
  std::uint64_t completed = 0;
  // Start somewhere in one mean cycle, so the terminals do not all key in lockstep.
  time_point due = shoal::now() + from_ms(rng.uniform() * (run.keying_ms + run.think_mean_ms));
  co_await shoal::sleep_until(due);
  record_wake(tally, due, home);
  while (!run.stop.load(std::memory_order_relaxed)) {  // pairs with main's store
    due = shoal::now() + from_ms(run.keying_ms);
    co_await shoal::sleep_until(due);
    record_wake(tally, due, home);
    if (run.stop.load(std::memory_order_relaxed)) break;  // gate closed: issue nothing new
    tally.checksum += transaction(rng);
    ++tally.transactions;
    ++completed;
    due = shoal::now() + think_time(rng, run.think_mean_ms);
    co_await shoal::sleep_until(due);
    record_wake(tally, due, home);
  }
  if (completed == 0) ++tally.idle_terminals;
  run.all_done.count_down();  // release: pairs with main's all_done.wait()
}

// ---- Process measurements -------------------------------------------------------------------

// A "Key:   123 kB" line of /proc/self/status, in bytes; nullopt where there is none.
std::optional<std::uint64_t> status_bytes(std::string_view key) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    const std::size_t digits = line.find_first_of("0123456789");
    if (digits == std::string::npos) return std::nullopt;
    return std::stoull(line.substr(digits)) * 1024;
  }
  return std::nullopt;
}

double seconds_of(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

double seconds_between(time_point a, time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double ms_of(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }

// ---- SIGINT ---------------------------------------------------------------------------------

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "used from a signal handler");

void on_sigint(int /*signal*/) { interrupted.store(true, std::memory_order_relaxed); }

void install_sigint_handler() {
  struct sigaction action{};
  action.sa_handler = &on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second Ctrl-C kills the process the usual way
  sigaction(SIGINT, &action, nullptr);
}

// Sleeps (main's thread, not a worker) until `end` or Ctrl-C; true when interrupted.
bool wait_for_end_of_run(time_point end) {
  for (time_point t = shoal::clock::now(); t < end; t = shoal::clock::now()) {
    if (interrupted.load(std::memory_order_relaxed)) return true;
    std::this_thread::sleep_for(std::min<duration>(end - t, 10ms));
  }
  return false;
}

// ---- The run and its report -----------------------------------------------------------------

struct timeline {
  time_point start, spawned, gate_closed, all_done;
  bool interrupted = false;
};

timeline run_terminals(shoal::thread_pool& pool, run_state& run, const options& o) {
  timeline t;
  t.start = shoal::clock::now();
  for (std::size_t i = 0; i < o.terminals; ++i) {
    const std::size_t k = i % pool.size();
    pool.spawn_on(k, terminal(run, k, 0x5EED0000ULL + i));
  }
  t.spawned = shoal::clock::now();
  t.interrupted = wait_for_end_of_run(t.start + from_ms(o.seconds * 1000.0));
  run.stop.store(true, std::memory_order_relaxed);  // pairs with the terminals' loads
  t.gate_closed = shoal::clock::now();
  run.all_done.wait();  // acquire: pairs with each terminal's count_down()
  t.all_done = shoal::clock::now();
  return t;
}

worker_tally merge(const std::vector<worker_tally>& tallies) {
  worker_tally total;
  for (const worker_tally& w : tallies) {
    total.transactions += w.transactions;
    total.early_wakes += w.early_wakes;
    total.off_home += w.off_home;
    total.idle_terminals += w.idle_terminals;
    total.checksum ^= w.checksum;
    total.lateness.merge(w.lateness);
  }
  return total;
}

void print_header(const options& o) {
  std::printf(
      "04_terminals: simulated TPC-C terminals on shoal. NO DATABASE IS INVOLVED: a transaction\n"
      "  is ~100 ns of hashing; what is measured is the coroutine runtime under a terminal load.\n"
      "  Time scale 1:%g (TPC-C New-Order): keying 18 s -> %g ms, think time negative\n"
      "  exponential mean 12 s -> %g ms, truncated at 10x the mean.\n"
      "  %zu terminals on %zu workers for %g s (Ctrl-C stops early and reports)...\n",
      o.time_scale, keying_ms_unscaled / o.time_scale, think_mean_ms_unscaled / o.time_scale,
      o.terminals, o.workers, o.seconds);
  std::fflush(stdout);
}

void print_memory(std::size_t terminals, std::optional<std::uint64_t> baseline) {
  const std::optional<std::uint64_t> peak = status_bytes("VmHWM");
  if (!peak || !baseline) {
    std::printf("peak RSS          n/a (no /proc/self/status)\n");
    return;
  }
  const double per_terminal =
      static_cast<double>(*peak - std::min(*peak, *baseline)) / static_cast<double>(terminals);
  std::printf("peak RSS          %.1f MiB (%.1f MiB before spawning): %.0f bytes per terminal\n",
              static_cast<double>(*peak) / 1048576.0, static_cast<double>(*baseline) / 1048576.0,
              per_terminal);
}

void print_cpu(double wall) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double user = seconds_of(usage.ru_utime);
  const double sys = seconds_of(usage.ru_stime);
  std::printf("CPU               %.2f s (user %.2f + system %.2f) over %.2f s wall: %.2f cores\n",
              user + sys, user, sys, wall, (user + sys) / wall);
}

void print_report(const options& o, const timeline& t, const worker_tally& total,
                  std::optional<std::uint64_t> baseline_rss) {
  const double wall = seconds_between(t.start, t.all_done);
  // One cycle per keying + mean think time.
  const double ideal = static_cast<double>(o.terminals) * o.time_scale / 30.0;
  std::printf("ended by          %s\n",
              t.interrupted ? "Ctrl-C (SIGINT): results so far" : "time limit");
  std::printf("terminals         %zu\n", o.terminals);
  std::printf("workers           %zu\n", o.workers);
  std::printf("wall time         %.2f s (spawning %.3f s, drain after the gate closed %.3f s)\n",
              wall, seconds_between(t.start, t.spawned),
              seconds_between(t.gate_closed, t.all_done));
  std::printf("transactions      %llu, %.0f per second (the pacing allows about %.0f)\n",
              static_cast<unsigned long long>(total.transactions),
              static_cast<double>(total.transactions) / wall, ideal);
  std::printf("timer lateness    p50 %.3f ms, p99 %.3f ms, max %.3f ms over %llu sleeps\n",
              ms_of(total.lateness.quantile(0.50)), ms_of(total.lateness.quantile(0.99)),
              ms_of(total.lateness.max()), static_cast<unsigned long long>(total.lateness.count()));
  print_memory(o.terminals, baseline_rss);
  print_cpu(wall);
  std::printf("idle terminals    %llu finished without completing a transaction\n",
              static_cast<unsigned long long>(total.idle_terminals));
}

void print_workers(const shoal::thread_pool& pool, const std::vector<worker_tally>& tallies) {
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const shoal::worker_stats s = pool.stats(k);
    std::printf(
        "  worker %-3zu       %llu transactions; resumed %llu, timers fired %llu, parked %llu\n", k,
        static_cast<unsigned long long>(tallies[k].transactions),
        static_cast<unsigned long long>(s.resumed), static_cast<unsigned long long>(s.timers_fired),
        static_cast<unsigned long long>(s.parked));
  }
}

// The outcome: 0 when the terminals ran as they should, 1 (saying why) when not.
int verdict(const worker_tally& total) {
  const char* problem = nullptr;
  if (total.transactions == 0) problem = "no transaction completed";
  if (total.early_wakes != 0) problem = "a sleep woke before its deadline";
  if (total.off_home != 0) problem = "a terminal resumed on another worker than its own";
  if (problem != nullptr) {
    std::printf("04_terminals: FAILED: %s\n", problem);
    return 1;
  }
  std::printf("04_terminals: PASS (every terminal finished; no early wake; affinity held)\n");
  return 0;
}

int run_demo(const options& o) {
  print_header(o);
  shoal::thread_pool pool({.workers = o.workers});
  pool.start();
  run_state state(pool, o);
  const std::optional<std::uint64_t> baseline_rss = status_bytes("VmRSS");
  const timeline t = run_terminals(pool, state, o);
  shoal::sync_wait(pool.stop());  // every terminal has finished: nothing is left sleeping
  const worker_tally total = merge(state.tallies);
  print_report(o, t, total, baseline_rss);
  print_workers(pool, state.tallies);
  return verdict(total);
}

}  // namespace

int main(int argc, char** argv) {
  install_sigint_handler();
  options o;
  try {
    o = parse_options(argc, argv);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "04_terminals: %s (try --help)\n", e.what());
    return 2;
  }
  if (o.help) {
    print_usage();
    return 0;
  }
  return run_demo(o);
}
