// SPDX-License-Identifier: Apache-2.0
// batcher_support.hpp: what the batchers' tests share (tests/unit/batcher*_test.cpp): bulk
// functions that record their batches, the callers, and `family`, which builds either batcher on
// a test executor for the typed suite (batcher_family_test.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <initializer_list>
#include <latch>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/batcher.hpp"
#include "shoal/executor.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/task.hpp"

namespace shoal::testing {

// A plain bulk function: x -> 10x, recording each batch it was called with.
struct times_ten {
  std::vector<std::vector<int>>* seen;
  std::vector<int> operator()(std::span<int> args) const {
    seen->emplace_back(args.begin(), args.end());
    std::vector<int> out;
    for (int a : args) out.push_back(a * 10);
    return out;
  }
};

// An awaiting bulk function: sleeps 10 ms (a timer of its executor), then times_ten.
struct sleeps_then_times_ten {
  std::vector<std::vector<int>>* seen;
  task<std::vector<int>> operator()(std::span<int> args) const {
    co_await shoal::sleep_for(std::chrono::milliseconds(10));
    co_return times_ten{seen}(args);
  }
};

// Odd items fail (std::out_of_range), even ones give 10x.
inline std::vector<item_result<int>> fail_odd(std::span<int> args) {
  std::vector<item_result<int>> out;
  for (int a : args) {
    if (a % 2 != 0) {
      out.push_back(item_result<int>::failure(std::make_exception_ptr(std::out_of_range("odd"))));
    } else {
      out.emplace_back(a * 10);
    }
  }
  return out;
}

inline std::vector<int> values(std::initializer_list<int> v) { return v; }

// One call of b, its result.
template <class B, class A>
task<std::optional<typename B::value_type>> call(B& b, A x) {
  co_return co_await b(std::move(x));
}

// One call of b under `token`, counted into `got` (a wrong value counts 1000000) or `none`.
template <class B>
task<void> stoppable_caller(B& b, int x, std::stop_token token, std::atomic<int>& got,
                            std::atomic<int>& none, std::latch& done) {
  std::optional<int> r = co_await shoal::with_stop_token(std::move(token), b(x));
  if (r) {
    got.fetch_add(*r == x * 10 ? 1 : 1000000);
  } else {
    none.fetch_add(1);
  }
  done.count_down();
}

// Either batcher, built for callers on `home` (shoal::batcher takes no home: it serves any).
template <template <class, class> class Batcher>
struct family {
  template <class Arg, class R>
  using type = Batcher<Arg, R>;

  template <class Arg, class R, class Bulk>
  static std::unique_ptr<type<Arg, R>> make(executor& home, Bulk bulk, batch_options<Arg> options) {
    if constexpr (std::is_constructible_v<type<Arg, R>, executor&, Bulk, batch_options<Arg>>) {
      return std::make_unique<type<Arg, R>>(home, std::move(bulk), std::move(options));
    } else {
      return std::make_unique<type<Arg, R>>(std::move(bulk), std::move(options));
    }
  }
};

}  // namespace shoal::testing
