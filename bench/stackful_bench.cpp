// SPDX-License-Identifier: Apache-2.0
// bench/stackful_bench.cpp: stackless tasks against stackful fibers, the async_simple experiments
// (seed 002) over shoal's task, shoal's fiber and bare Boost.Context, in one run.
//
// Rows are <experiment>/<system>/<param>; systems: `task` (shoal::task), `fiber` (shoal::fiber
// with shoal::await), `boost_context` (boost::context::fiber resume, on a reused stack: the floor).
// - switch/<system>/<N>: one iteration is ONE SWITCH, a suspension and a resumption (a round
//   trip): a fresh coroutine is started, suspends N times to the benchmark loop, which resumes it
//   each time, and ends (KeepRunningBatch(N): creation is amortised over N). task: a task
//   `co_await`s an awaiter that parks its handle. fiber: a fiber calls shoal::await on that
//   awaiter (its driver task parks, the loop resumes the driver, which switches back into the
//   fiber). boost_context: the fiber resumes its caller, the loop resumes the fiber.
// - call_depth/<system>/<N>: one iteration is a chain of N nested calls whose innermost one
//   suspends once and is resumed: task: N awaited tasks (frames from shoal's recycling frame
//   allocator); task_heap_frames: the same with a minimal lazy task of the same shape whose frames
//   come from ::operator new (the frame allocator off); fiber and boost_context: N plain
//   [[gnu::noinline]] calls on the fiber's stack, the innermost switching out and back.
// - memory/<system>/<N>: one iteration starts N coroutines that each suspend and stay
//   suspended, reads the resident set, then resumes them to their end. Counter bytes_per_unit:
//   RSS growth / N (fibers: unguarded 64 KiB stacks, since 100,000 guarded ones exceed
//   vm.max_map_count; the guard page is never resident). Time: per unit, creation to end.
// - terminals/<system>/<N>: N TPC-C-shaped terminals on a 2-worker pool, each running 3 loops of
//   sleep 20 ms (keying), a fake statement (8 nested calls and ~2 us of CPU, then a 1 ms sleep
//   for the round trip), sleep 20 ms (think). Counters: cpu_us_per_loop (process CPU time),
//   bytes_per_terminal (RSS growth once all are started). Time: wall for the whole run.
// - io_size/<system>/<payload> and io_count/<system>/<readers>: readers (tasks or fibers, bound
//   alternately to the 2 workers) each own a non-blocking socket pair and read through the
//   reactor (fd_watch: co_await in a task, shoal::await in a fiber). One iteration: the benchmark
//   thread writes `payload` bytes into every pair, then waits until each reader has read them.
//   io_size: 64 readers; io_count: 4 KiB each. Time: real time per round.
// Counters allocs/op where meaningful. Sanitizer builds (smoke runs) skip the bare Boost.Context
// rows: without the annotations shoal::fiber makes, TSan and ASan do not follow its switches.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <time.h>
#include <unistd.h>

#include <sys/mman.h>
#include <sys/socket.h>
#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#include "shoal/fd_watch.hpp"
#include "shoal/fiber.hpp"
#include "shoal/sleep.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define STACKFUL_BENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define STACKFUL_BENCH_SANITIZED 1
#endif
#endif
#ifndef STACKFUL_BENCH_SANITIZED
#define STACKFUL_BENCH_SANITIZED 0
#endif

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::full_or_smoke;
using shoal::bench::report_allocs;
namespace ctx = boost::context;

// Parks the awaiting coroutine's handle in a slot; whoever holds the slot resumes it.
struct park {
  std::coroutine_handle<>* slot;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept { *slot = h; }
  void await_resume() const noexcept {}
};

// Runs a released task handle to its end, resuming whatever it parks in `slot`.
void drive(std::coroutine_handle<> h, std::coroutine_handle<>& slot) {
  h.resume();
  while (!h.done()) slot.resume();
  h.destroy();
}

// A stack for bare Boost.Context fibers: one mapping, handed out again and again (no allocation
// in the measured loop, as shoal's pool gives shoal's fibers).
class reused_stack {
 public:
  explicit reused_stack(std::size_t size) : size_(size) {
    void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    base_ = static_cast<char*>(m);
  }
  reused_stack(const reused_stack&) = delete;
  reused_stack& operator=(const reused_stack&) = delete;
  ~reused_stack() { ::munmap(base_, size_); }

  // The Boost.Context StackAllocator concept, over this one stack.
  struct allocator {
    reused_stack* stack;
    ctx::stack_context allocate() const {
      ctx::stack_context s;
      s.size = stack->size_;
      s.sp = stack->base_ + stack->size_;
      return s;
    }
    void deallocate(ctx::stack_context& /*unused*/) const noexcept {}
  };
  allocator get() noexcept { return {this}; }

 private:
  char* base_ = nullptr;
  std::size_t size_;
};

// A stack per fiber, mapped like shoal's unguarded ones (for the memory row of Boost.Context).
struct mapped_stack_allocator {
  std::size_t size = shoal::fiber_default_stack_size;
  ctx::stack_context allocate() const {
    void* m = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    ctx::stack_context s;
    s.size = size;
    s.sp = static_cast<char*>(m) + size;
    return s;
  }
  void deallocate(ctx::stack_context& s) const noexcept {
    ::munmap(static_cast<char*>(s.sp) - s.size, s.size);
  }
};

// --- switch --------------------------------------------------------------------------------

shoal::task<> switching_task(int n, std::coroutine_handle<>* slot) {
  for (int i = 0; i < n; ++i) co_await park{slot};
}

void switch_task(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  std::coroutine_handle<> slot;
  const alloc_meter allocs;
  while (state.KeepRunningBatch(n)) drive(switching_task(n, &slot).release(), slot);
  report_allocs(state, allocs);
}

void switch_fiber(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  std::coroutine_handle<> slot;
  auto body = [n, &slot] {
    for (int i = 0; i < n; ++i) shoal::await(park{&slot});
  };
  drive(shoal::fiber(body).release(), slot);  // warm-up: a stack in this thread's cache
  const alloc_meter allocs;
  while (state.KeepRunningBatch(n)) drive(shoal::fiber(body).release(), slot);
  report_allocs(state, allocs);
}

[[maybe_unused]] void switch_boost_context(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  reused_stack stack(shoal::fiber_default_stack_size);
  const alloc_meter allocs;
  while (state.KeepRunningBatch(n)) {
    ctx::fiber f(std::allocator_arg, stack.get(), [n](ctx::fiber&& caller) {
      for (int i = 0; i < n; ++i) caller = std::move(caller).resume();
      return std::move(caller);
    });
    for (int i = 0; i <= n; ++i) f = std::move(f).resume();
  }
  report_allocs(state, allocs);
}

// --- call_depth ------------------------------------------------------------------------------

shoal::task<int> nested_task(int depth, std::coroutine_handle<>* slot) {
  if (depth == 1) {
    co_await park{slot};
    co_return 1;
  }
  co_return 1 + co_await nested_task(depth - 1, slot);
}

shoal::task<> task_chains(benchmark::State& state, std::coroutine_handle<>* slot, bool* done) {
  const auto depth = static_cast<int>(state.range(0));
  const alloc_meter allocs;
  for (auto _ : state) benchmark::DoNotOptimize(co_await nested_task(depth, slot));
  report_allocs(state, allocs);
  *done = true;
}

// Drives a benchmark loop that parks once per iteration in `slot`.
template <class Start>
void drive_loop(Start start) {
  std::coroutine_handle<> slot;
  bool done = false;
  std::coroutine_handle<> h = start(&slot, &done);
  h.resume();
  while (!done) slot.resume();
  h.destroy();
}

void call_depth_task(benchmark::State& state) {
  drive_loop([&](std::coroutine_handle<>* slot, bool* done) {
    return std::coroutine_handle<>(task_chains(state, slot, done).release());
  });
}

// The frame allocator off: a lazy task of the same shape as shoal's (continuation, symmetric
// transfer, result in the promise) whose frames come from ::operator new.
template <class T>
class heap_task {
 public:
  struct promise_type {
    std::coroutine_handle<> continuation;
    T value{};
    heap_task get_return_object() {
      return heap_task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    auto final_suspend() noexcept {
      struct to_continuation {
        bool await_ready() noexcept { return false; }
        std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
          return h.promise().continuation ? h.promise().continuation : std::noop_coroutine();
        }
        void await_resume() noexcept {}
      };
      return to_continuation{};
    }
    void return_value(T v) { value = v; }
    void unhandled_exception() { std::terminate(); }
  };
  explicit heap_task(std::coroutine_handle<promise_type> h) : h_(h) {}
  heap_task(heap_task&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  heap_task(const heap_task&) = delete;
  heap_task& operator=(const heap_task&) = delete;
  heap_task& operator=(heap_task&&) = delete;
  ~heap_task() {
    if (h_) h_.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    h_.promise().continuation = caller;
    return h_;
  }
  T await_resume() { return h_.promise().value; }

 private:
  std::coroutine_handle<promise_type> h_;
};

heap_task<int> nested_heap_task(int depth, std::coroutine_handle<>* slot) {
  if (depth == 1) {
    co_await park{slot};
    co_return 1;
  }
  co_return 1 + co_await nested_heap_task(depth - 1, slot);
}

shoal::task<> heap_task_chains(benchmark::State& state, std::coroutine_handle<>* slot, bool* done) {
  const auto depth = static_cast<int>(state.range(0));
  const alloc_meter allocs;
  for (auto _ : state) benchmark::DoNotOptimize(co_await nested_heap_task(depth, slot));
  report_allocs(state, allocs);
  *done = true;
}

void call_depth_task_heap_frames(benchmark::State& state) {
  drive_loop([&](std::coroutine_handle<>* slot, bool* done) {
    return std::coroutine_handle<>(heap_task_chains(state, slot, done).release());
  });
}

// N nested plain calls; the innermost one calls `bottom`.
template <class Bottom>
[[gnu::noinline]] int nested_call(int depth, const Bottom& bottom) {
  if (depth == 1) {
    bottom();
    return 1;
  }
  const int below = nested_call(depth - 1, bottom);
  benchmark::DoNotOptimize(below);
  return 1 + below;
}

void call_depth_fiber(benchmark::State& state) {
  const auto depth = static_cast<int>(state.range(0));
  drive_loop([&](std::coroutine_handle<>* slot, bool* done) {
    auto body = [&state, depth, slot, done] {
      auto bottom = [slot] { shoal::await(park{slot}); };
      const alloc_meter allocs;
      for (auto _ : state) benchmark::DoNotOptimize(nested_call(depth, bottom));
      report_allocs(state, allocs);
      *done = true;
    };
    return std::coroutine_handle<>(shoal::fiber(body).release());
  });
}

[[maybe_unused]] void call_depth_boost_context(benchmark::State& state) {
  const auto depth = static_cast<int>(state.range(0));
  reused_stack stack(shoal::fiber_default_stack_size);
  bool done = false;
  ctx::fiber f(std::allocator_arg, stack.get(), [&](ctx::fiber&& caller) {
    auto bottom = [&caller] { caller = std::move(caller).resume(); };
    const alloc_meter allocs;
    for (auto _ : state) benchmark::DoNotOptimize(nested_call(depth, bottom));
    report_allocs(state, allocs);
    done = true;
    return std::move(caller);
  });
  while (!done) f = std::move(f).resume();
}

// --- memory ----------------------------------------------------------------------------------

std::size_t resident_bytes() {
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr) return 0;
  unsigned long size = 0;
  unsigned long resident = 0;
  const int got = std::fscanf(statm, "%lu %lu", &size, &resident);
  std::fclose(statm);
  return got == 2 ? resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

// Suspended units parked in one slot each; `resume_all` resumes each to its end.
struct parked {
  std::vector<std::coroutine_handle<>> slots;
  std::vector<std::coroutine_handle<>> roots;  // destroyed once done
};

shoal::task<> parked_task(std::coroutine_handle<>* slot) { co_await park{slot}; }

// Starts `n` units with `start(slot)`, measures the resident growth, resumes them all.
template <class Start>
double memory_run(std::size_t n, Start start) {
  parked p;
  p.slots.resize(n);
  p.roots.reserve(n);
  ::malloc_trim(0);
  const std::size_t before = resident_bytes();
  for (std::size_t i = 0; i < n; ++i) {
    p.roots.push_back(start(&p.slots[i]));
    p.roots.back().resume();
  }
  const std::size_t during = resident_bytes();
  for (std::size_t i = 0; i < n; ++i) {
    p.slots[i].resume();
    p.roots[i].destroy();
  }
  return static_cast<double>(during - before) / static_cast<double>(n);
}

void report_memory(benchmark::State& state, double bytes) {
  state.counters["bytes_per_unit"] = bytes;
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void memory_task(benchmark::State& state) {
  double bytes = 0;
  for (auto _ : state) {
    bytes = memory_run(static_cast<std::size_t>(state.range(0)), [](auto* slot) {
      return std::coroutine_handle<>(parked_task(slot).release());
    });
  }
  report_memory(state, bytes);
}

void memory_fiber(benchmark::State& state) {
  shoal::set_fiber_stack_pool_limit(0);  // fresh stacks: reused ones would be resident already
  double bytes = 0;
  for (auto _ : state) {
    bytes = memory_run(static_cast<std::size_t>(state.range(0)), [](auto* slot) {
      auto body = [slot] { shoal::await(park{slot}); };
      return std::coroutine_handle<>(shoal::fiber(body, {.guard_page = false}).release());
    });
  }
  shoal::set_fiber_stack_pool_limit(1024);
  report_memory(state, bytes);
}

[[maybe_unused]] void memory_boost_context(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  double bytes = 0;
  for (auto _ : state) {
    std::vector<ctx::fiber> fibers;
    fibers.reserve(n);
    ::malloc_trim(0);
    const std::size_t before = resident_bytes();
    for (std::size_t i = 0; i < n; ++i) {
      fibers.emplace_back(std::allocator_arg, mapped_stack_allocator{},
                          [](ctx::fiber&& caller) { return std::move(caller).resume(); });
      fibers.back() = std::move(fibers.back()).resume();
    }
    bytes = static_cast<double>(resident_bytes() - before) / static_cast<double>(n);
    for (ctx::fiber& f : fibers) f = std::move(f).resume();
  }
  report_memory(state, bytes);
}

// --- terminals -------------------------------------------------------------------------------

using std::chrono::milliseconds;
constexpr int terminal_loops = 3;
const auto keying = full_or_smoke<shoal::duration>(milliseconds(20), milliseconds(2));
const auto round_trip = full_or_smoke<shoal::duration>(milliseconds(1), milliseconds(1));
const auto think = full_or_smoke<shoal::duration>(milliseconds(20), milliseconds(2));

[[gnu::noinline]] std::uint64_t statement_cpu(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (int i = 0; i < 2000; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct terminal_run {
  std::atomic<int> started{0};
  shoal::bench::join_counter finished;
};

// The fake statement as tasks: 8 nested awaited tasks, CPU, then the round trip.
shoal::task<std::uint64_t> statement_task(int depth, std::uint64_t seed) {
  if (depth == 1) {
    const std::uint64_t v = statement_cpu(seed);
    co_await shoal::sleep_for(round_trip);
    co_return v;
  }
  co_return co_await statement_task(depth - 1, seed + 1);
}

shoal::task<> terminal_task(terminal_run& run, std::uint64_t id) {
  run.started.fetch_add(1, std::memory_order_relaxed);
  for (int i = 0; i < terminal_loops; ++i) {
    co_await shoal::sleep_for(keying);
    benchmark::DoNotOptimize(co_await statement_task(8, id));
    co_await shoal::sleep_for(think);
  }
  run.finished.arrive();
}

// The fake statement as plain calls on the fiber's stack.
std::uint64_t statement_plain(int depth, std::uint64_t seed) {
  auto bottom = [&seed] {
    seed = statement_cpu(seed);
    shoal::await(shoal::sleep_for(round_trip));
  };
  benchmark::DoNotOptimize(nested_call(depth, bottom));
  return seed;
}

void terminal_fiber(terminal_run& run, std::uint64_t id) {
  run.started.fetch_add(1, std::memory_order_relaxed);
  for (int i = 0; i < terminal_loops; ++i) {
    shoal::await(shoal::sleep_for(keying));
    benchmark::DoNotOptimize(statement_plain(8, id));
    shoal::await(shoal::sleep_for(think));
  }
  run.finished.arrive();
}

template <class Spawn>
void terminals(benchmark::State& state, Spawn spawn) {
  const auto n = static_cast<int>(state.range(0));
  double cpu = 0;
  double bytes = 0;
  for (auto _ : state) {
    shoal::bench::running_pool pool(2);
    terminal_run run;
    run.finished.reset(n);
    ::malloc_trim(0);
    const std::size_t before = resident_bytes();
    const double cpu_before = process_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) spawn(pool.get(), run, static_cast<std::uint64_t>(i));
    while (run.started.load(std::memory_order_relaxed) < n) std::this_thread::yield();
    bytes = static_cast<double>(resident_bytes() - before) / n;
    run.finished.wait();
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    cpu = process_cpu_seconds() - cpu_before;
    state.SetIterationTime(wall.count());
  }
  state.counters["cpu_us_per_loop"] = cpu * 1e6 / (static_cast<double>(n) * terminal_loops);
  state.counters["bytes_per_terminal"] = bytes;
}

void terminals_task(benchmark::State& state) {
  terminals(state, [](shoal::thread_pool& pool, terminal_run& run, std::uint64_t id) {
    pool.spawn(terminal_task(run, id));
  });
}

void terminals_fiber(benchmark::State& state) {
  shoal::set_fiber_stack_pool_limit(0);
  terminals(state, [](shoal::thread_pool& pool, terminal_run& run, std::uint64_t id) {
    pool.spawn(shoal::fiber([&run, id] { terminal_fiber(run, id); }, {.guard_page = false}));
  });
  shoal::set_fiber_stack_pool_limit(1024);
}

// --- io ------------------------------------------------------------------------------------

// Reads from `fd` through the reactor; each `payload` bytes received is one arrival at `round`.
// Ends at EOF. `wait_readable` is how it waits: co_await in a task, shoal::await in a fiber.
struct io_reader {
  int fd;
  std::size_t payload;
  shoal::bench::join_counter* round;
  shoal::bench::join_counter* ended;
  std::size_t got = 0;

  // One read; false when the stream ended (or failed), else true (maybe nothing read: EAGAIN).
  bool read_some(bool& would_block) {
    std::array<char, 16384> buffer;
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    would_block = n < 0 && errno == EAGAIN;
    if (n <= 0) return would_block;
    got += static_cast<std::size_t>(n);
    while (got >= payload) {
      got -= payload;
      round->arrive();
    }
    return true;
  }
};

shoal::task<> io_task(io_reader r) {
  {
    shoal::fd_watch watch(r.fd);
    bool would_block = false;
    while (r.read_some(would_block)) {
      if (would_block) co_await watch.readable();
    }
  }
  r.ended->arrive();
}

void io_fiber(io_reader r) {
  {
    shoal::fd_watch watch(r.fd);
    bool would_block = false;
    while (r.read_some(would_block)) {
      if (would_block) shoal::await(watch.readable());
    }
  }
  r.ended->arrive();
}

// `readers` socket pairs read by tasks or fibers on a 2-worker pool; one iteration: the
// benchmark thread writes `payload` bytes into each, then waits until every reader has read them.
template <class Spawn>
void io_rounds(benchmark::State& state, std::size_t readers, std::size_t payload, Spawn spawn) {
  std::vector<std::array<int, 2>> pairs(readers);
  for (auto& p : pairs) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, p.data()) != 0) {
      state.SkipWithError("socketpair failed");
      return;
    }
  }
  const std::vector<char> data(payload, 'x');
  shoal::bench::join_counter round;
  shoal::bench::join_counter ended;
  ended.reset(static_cast<std::int64_t>(readers));
  {
    shoal::bench::running_pool pool(2);
    for (std::size_t i = 0; i < readers; ++i) {
      spawn(pool.get(), i % 2, io_reader{pairs[i][0], payload, &round, &ended});
    }
    for (auto _ : state) {
      round.reset(static_cast<std::int64_t>(readers));
      for (auto& p : pairs) {
        std::size_t sent = 0;
        while (sent < payload) {  // the socket buffer holds a round: EAGAIN only transiently
          const ssize_t n = ::write(p[1], data.data() + sent, payload - sent);
          if (n > 0) sent += static_cast<std::size_t>(n);
        }
      }
      round.wait();
    }
    for (auto& p : pairs) ::shutdown(p[1], SHUT_WR);  // the readers end at EOF
    ended.wait();
  }
  for (auto& p : pairs) {
    ::close(p[0]);
    ::close(p[1]);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(readers));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(readers * payload));
}

void spawn_io_task(shoal::thread_pool& pool, std::size_t k, io_reader r) {
  pool.spawn_on(k, io_task(r));
}
void spawn_io_fiber(shoal::thread_pool& pool, std::size_t k, io_reader r) {
  pool.spawn_on(k, shoal::fiber([r] { io_fiber(r); }));
}

constexpr std::size_t io_readers = 64;
constexpr std::size_t io_payload = 4096;

void io_size_task(benchmark::State& state) {
  io_rounds(state, io_readers, static_cast<std::size_t>(state.range(0)), spawn_io_task);
}
void io_size_fiber(benchmark::State& state) {
  io_rounds(state, io_readers, static_cast<std::size_t>(state.range(0)), spawn_io_fiber);
}
void io_count_task(benchmark::State& state) {
  io_rounds(state, static_cast<std::size_t>(state.range(0)), io_payload, spawn_io_task);
}
void io_count_fiber(benchmark::State& state) {
  io_rounds(state, static_cast<std::size_t>(state.range(0)), io_payload, spawn_io_fiber);
}

// --- registration ----------------------------------------------------------------------------

const std::int64_t units = full_or_smoke<std::int64_t>(100'000, 1'000);

// Memory first, while the process is small and nothing freed earlier can be reused.
BENCHMARK(memory_task)
    ->Name("memory/task")
    ->Arg(units)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(memory_fiber)
    ->Name("memory/fiber")
    ->Arg(units)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
#if !STACKFUL_BENCH_SANITIZED
BENCHMARK(memory_boost_context)
    ->Name("memory/boost_context")
    ->Arg(units)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
#endif

BENCHMARK(switch_task)->Name("switch/task")->RangeMultiplier(10)->Range(1, 10'000);
BENCHMARK(switch_fiber)->Name("switch/fiber")->RangeMultiplier(10)->Range(1, 10'000);
#if !STACKFUL_BENCH_SANITIZED
BENCHMARK(switch_boost_context)
    ->Name("switch/boost_context")
    ->RangeMultiplier(10)
    ->Range(1, 10'000);
#endif

BENCHMARK(call_depth_task)->Name("call_depth/task")->RangeMultiplier(2)->Range(1, 64);
BENCHMARK(call_depth_task_heap_frames)
    ->Name("call_depth/task_heap_frames")
    ->RangeMultiplier(2)
    ->Range(1, 64);
BENCHMARK(call_depth_fiber)->Name("call_depth/fiber")->RangeMultiplier(2)->Range(1, 64);
#if !STACKFUL_BENCH_SANITIZED
BENCHMARK(call_depth_boost_context)
    ->Name("call_depth/boost_context")
    ->RangeMultiplier(2)
    ->Range(1, 64);
#endif

// io_size: 64 readers, payload 64 B .. 64 KiB; io_count: 4 KiB, 1 .. 1,024 readers.
const std::int64_t io_max_payload = full_or_smoke<std::int64_t>(64 << 10, 4 << 10);
const std::int64_t io_max_readers = full_or_smoke<std::int64_t>(1024, 64);
BENCHMARK(io_size_task)
    ->Name("io_size/task")
    ->RangeMultiplier(8)
    ->Range(64, io_max_payload)
    ->UseRealTime();
BENCHMARK(io_size_fiber)
    ->Name("io_size/fiber")
    ->RangeMultiplier(8)
    ->Range(64, io_max_payload)
    ->UseRealTime();
BENCHMARK(io_count_task)
    ->Name("io_count/task")
    ->RangeMultiplier(4)
    ->Range(1, io_max_readers)
    ->UseRealTime();
BENCHMARK(io_count_fiber)
    ->Name("io_count/fiber")
    ->RangeMultiplier(4)
    ->Range(1, io_max_readers)
    ->UseRealTime();

BENCHMARK(terminals_task)
    ->Name("terminals/task")
    ->Arg(units)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(terminals_fiber)
    ->Name("terminals/fiber")
    ->Arg(units)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
