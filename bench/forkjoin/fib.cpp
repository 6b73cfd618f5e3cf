// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/fib.cpp: recursive fork/join Fibonacci, written as a C++ user writes it with
// shoal: `co_await when_all(fib(n - 1), fib(n - 2))`. The runtime-benchmarks suite's fib
// (github tzcnt/runtime-benchmarks, cpp/*/fib.cpp): fib(30) as warm-up, then fib(N) timed.
// Usage: forkjoin_fib N [threads]   (the suite runs N = 39 on 2 threads here)
#include <cstdio>
#include <cstdlib>

#include "forkjoin/run.hpp"
#include "shoal/when_all.hpp"

namespace {

shoal::task<std::size_t> fib(std::size_t n) {
  if (n < 2) co_return n;
  auto [x, y] = co_await shoal::when_all(fib(n - 1), fib(n - 2));
  co_return x + y;
}

// fib(n) by iteration: the answer the recursive one is checked against.
std::size_t fib_by_loop(std::size_t n) {
  std::size_t a = 0, b = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("Usage: forkjoin_fib <n-th fibonacci number requested> [threads]\n");
    return 0;
  }
  const auto n = static_cast<std::size_t>(std::atoi(argv[1]));
  return forkjoin::run(
      forkjoin::threads_arg(argc, argv, 2), [] { return fib(30); },
      [n]() -> shoal::task<void> {
        const std::size_t answer = co_await fib(n);
        std::printf("output: %zu\n", answer);
        if (answer != fib_by_loop(n)) {
          std::printf("ERROR: wrong result - %zu, expected %zu\n", answer, fib_by_loop(n));
        }
      });
}
