// SPDX-License-Identifier: Apache-2.0
// bench/fork_join_bench.cpp: structured concurrency: when_all of 2 and of 1000 tasks, task_group
// spawn-and-join per child, and the cost of a stop-token check on the fast path.
//
// One iteration is, on a shoal thread_pool of 1 or 2 workers (the loop itself runs on worker 0):
//   when_all_2_shoal       `co_await when_all(child(), child())`, children that return at once;
//   when_all_1000_shoal    `co_await when_all(vector of 1000 such tasks)`;
//   task_group_1000_shoal  with_task_group spawning 1000 such children and taking every result
//                          with next_result (items/s counts children);
//   spawn_1000_counter_shoal  the floor under both: 1000 `pool.spawn`ed children and a
//                          hand-written atomic countdown whose last arrival resumes the loop.
// Baselines, Asio 1.22 on an io_context run by as many threads, the loop in an awaitable:
//   when_all_2_asio        `co_await (child() && child())` (experimental::awaitable_operators,
//                          built on make_parallel_group);
//   when_all_1000_asio_counter  Asio 1.22 has no ranged parallel group, so: 1000 children
//                          `co_spawn`ed with a completion handler each and a hand-written atomic
//                          countdown whose last arrival resumes the loop (no cancellation, no
//                          results collected: a lower bound for a real join).
// Stop-token check, in a shoal coroutine whose token can be stopped but is not:
//   stop_check_shoal       `shoal::stop_requested()` (thread-local env, token load) per iteration;
//   stop_check_empty_loop  the same loop with nothing in it (the baseline: the target is no
//                          measurable difference).
// Counters: items/s (children joined per second), allocs/op (calls to operator new per child,
// or per iteration for when_all of 2 and the stop checks).
#include <benchmark/benchmark.h>
#include <asio.hpp>
#include <asio/experimental/awaitable_operators.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <stop_token>
#include <vector>

#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/task_group.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "support/alloc_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::report_allocs;
using shoal::bench::running_io_context;
using shoal::bench::running_pool;

const int wide = shoal::bench::full_or_smoke(1000, 50);

void per_child(benchmark::State& state, const alloc_meter& allocs, int children) {
  const double total = static_cast<double>(children) * static_cast<double>(state.iterations());
  report_allocs(state, allocs, total);
  state.SetItemsProcessed(static_cast<std::int64_t>(total));
}

// --- shoal ------------------------------------------------------------------------------------

shoal::task<int> shoal_child(int x) { co_return x + 1; }

// Runs `loop(state)` on worker 0 of a pool of state.range(0) workers, from this thread.
template <class Loop>
void on_pool(benchmark::State& state, Loop loop) {
  running_pool pool(static_cast<std::size_t>(state.range(0)));
  auto run = [](shoal::thread_pool& p, Loop l, benchmark::State& s) -> shoal::task<> {
    co_await p.schedule_on(0);
    co_await p.schedule();  // unbound: children and the loop may move between workers
    co_await l(s);
  };
  shoal::sync_wait(run(pool.get(), loop, state));
}

void when_all_2_shoal(benchmark::State& state) {
  on_pool(state, [](benchmark::State& s) -> shoal::task<> {
    auto [a, b] = co_await shoal::when_all(shoal_child(0), shoal_child(1));  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) {
      auto [x, y] = co_await shoal::when_all(shoal_child(a), shoal_child(b));
      benchmark::DoNotOptimize(x + y);
    }
    per_child(s, allocs, 1);
    s.SetItemsProcessed(2 * s.iterations());
  });
}

shoal::task<> shoal_wide_when_all() {
  std::vector<shoal::task<int>> children;
  children.reserve(static_cast<std::size_t>(wide));
  for (int i = 0; i < wide; ++i) children.push_back(shoal_child(i));
  const std::vector<int> values = co_await shoal::when_all(std::move(children));
  benchmark::DoNotOptimize(values.data());
}

void when_all_1000_shoal(benchmark::State& state) {
  on_pool(state, [](benchmark::State& s) -> shoal::task<> {
    co_await shoal_wide_when_all();  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) co_await shoal_wide_when_all();
    per_child(s, allocs, wide);
  });
}

shoal::task<> shoal_wide_group() {
  auto body = [](shoal::task_group<int>& group) -> shoal::task<int> {
    for (int i = 0; i < wide; ++i) group.spawn(shoal_child(i));
    int sum = 0;
    while (auto r = co_await group.next_result()) sum += r->take_value();
    co_return sum;
  };
  benchmark::DoNotOptimize(co_await shoal::with_task_group<int>(body));
}

void task_group_1000_shoal(benchmark::State& state) {
  on_pool(state, [](benchmark::State& s) -> shoal::task<> {
    co_await shoal_wide_group();  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) co_await shoal_wide_group();
    per_child(s, allocs, wide);
  });
}

// The hand-written floor: spawn, count down, the last child resumes the waiting coroutine.
struct countdown {
  std::atomic<int> left{0};
  std::coroutine_handle<> waiter;
  shoal::executor* where = nullptr;
};

shoal::task<> counted_child(countdown& join) {
  // acq_rel: the last arrival acquires every other child's release before resuming the waiter.
  if (join.left.fetch_sub(1, std::memory_order_acq_rel) == 1) join.where->post(join.waiter, false);
  co_return;
}

struct countdown_awaiter {
  shoal::thread_pool& pool;
  countdown& join;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) {
    join.waiter = h;
    join.where = shoal::executor::current();
    join.left.store(wide, std::memory_order_relaxed);  // published by the spawns' posts
    for (int i = 0; i < wide; ++i) pool.spawn(counted_child(join));
  }
  void await_resume() const noexcept {}
};

void spawn_1000_counter_shoal(benchmark::State& state) {
  running_pool pool(static_cast<std::size_t>(state.range(0)));
  auto loop = [](shoal::thread_pool& p, benchmark::State& s) -> shoal::task<> {
    co_await p.schedule_on(0);
    co_await p.schedule();
    countdown join;
    co_await countdown_awaiter{p, join};  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) co_await countdown_awaiter{p, join};
    per_child(s, allocs, wide);
  };
  shoal::sync_wait(loop(pool.get(), state));
}

// --- Asio -------------------------------------------------------------------------------------

using namespace asio::experimental::awaitable_operators;  // operator&& on awaitables

asio::awaitable<int> asio_child(int x) { co_return x + 1; }

template <class Loop>
void on_io_context(benchmark::State& state, Loop loop) {
  running_io_context io(static_cast<int>(state.range(0)));
  asio::co_spawn(io.get(), loop(state), asio::use_future).get();
}

void when_all_2_asio(benchmark::State& state) {
  on_io_context(state, [](benchmark::State& s) -> asio::awaitable<void> {
    auto [a, b] = co_await (asio_child(0) && asio_child(1));  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) {
      auto [x, y] = co_await (asio_child(a) && asio_child(b));
      benchmark::DoNotOptimize(x + y);
    }
    per_child(s, allocs, 1);
    s.SetItemsProcessed(2 * s.iterations());
  });
}

// Resumes the awaiting coroutine when the last of `wide` co_spawned children has completed.
asio::awaitable<void> asio_wide_counter_join() {
  auto ex = co_await asio::this_coro::executor;
  co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
      [ex](auto handler) {
        using handler_type = decltype(handler);
        struct join_state {
          std::atomic<int> left;
          handler_type resume;
        };
        auto join = std::make_shared<join_state>(wide, std::move(handler));
        for (int i = 0; i < wide; ++i) {
          asio::co_spawn(ex, asio_child(i), [join](const std::exception_ptr&, int value) {
            benchmark::DoNotOptimize(value);
            // acq_rel: the last arrival acquires the others' release before resuming.
            if (join->left.fetch_sub(1, std::memory_order_acq_rel) == 1) std::move(join->resume)();
          });
        }
      },
      asio::use_awaitable);
}

void when_all_1000_asio_counter(benchmark::State& state) {
  on_io_context(state, [](benchmark::State& s) -> asio::awaitable<void> {
    co_await asio_wide_counter_join();  // warm-up
    const alloc_meter allocs;
    for (auto _ : s) co_await asio_wide_counter_join();
    per_child(s, allocs, wide);
  });
}

// --- stop-token check -------------------------------------------------------------------------

constexpr int checks_per_iteration = 1000;

void stop_check_shoal(benchmark::State& state) {
  auto loop = [](benchmark::State& s) -> shoal::task<> {
    const alloc_meter allocs;
    for (auto _ : s) {
      for (int i = 0; i < checks_per_iteration; ++i) {
        benchmark::DoNotOptimize(shoal::stop_requested());
      }
    }
    report_allocs(s, allocs);
    s.SetItemsProcessed(s.iterations() * checks_per_iteration);
    co_return;
  };
  std::stop_source source;  // stoppable, never stopped: the fast path
  shoal::sync_wait(shoal::with_stop_token(source.get_token(), loop(state)));
}

void stop_check_empty_loop(benchmark::State& state) {
  auto loop = [](benchmark::State& s) -> shoal::task<> {
    const alloc_meter allocs;
    for (auto _ : s) {
      for (int i = 0; i < checks_per_iteration; ++i) {
        bool nothing = false;
        benchmark::DoNotOptimize(nothing);
      }
    }
    report_allocs(s, allocs);
    s.SetItemsProcessed(s.iterations() * checks_per_iteration);
    co_return;
  };
  shoal::sync_wait(loop(state));
}

void worker_counts(benchmark::internal::Benchmark* b) {
  b->ArgName("workers")->Arg(1)->Arg(2)->UseRealTime();
}
BENCHMARK(when_all_2_shoal)->Apply(worker_counts);
BENCHMARK(when_all_2_asio)->Apply(worker_counts);
BENCHMARK(when_all_1000_shoal)->Apply(worker_counts)->Unit(benchmark::kMicrosecond);
BENCHMARK(task_group_1000_shoal)->Apply(worker_counts)->Unit(benchmark::kMicrosecond);
BENCHMARK(spawn_1000_counter_shoal)->Apply(worker_counts)->Unit(benchmark::kMicrosecond);
BENCHMARK(when_all_1000_asio_counter)->Apply(worker_counts)->Unit(benchmark::kMicrosecond);
BENCHMARK(stop_check_shoal);
BENCHMARK(stop_check_empty_loop);

}  // namespace

BENCHMARK_MAIN();
