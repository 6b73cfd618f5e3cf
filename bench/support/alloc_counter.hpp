// SPDX-License-Identifier: Apache-2.0
// bench/support/alloc_counter.hpp: how many times the benchmark program called operator new.
//
// What: alloc_counter.cpp replaces the global ::operator new / ::operator delete of every
// benchmark program and counts each allocation, on every thread and from every library (shoal,
// Asio, the standard library). A benchmark takes an `alloc_meter` before the measured work and
// reports `allocations()` divided by the operations it ran as the user counter "allocs/op".
//
// Sanitizer builds keep the sanitizer's operator new and count nothing; the benchmarks then
// report no "allocs/op" counter.
//
// Thread-safety: any thread. Each thread counts in its own cache line (relaxed increments), so
// counting adds no contention. A reader sees every allocation made by threads that have
// synchronised with it (joined, or signalled the end of their work); in-flight counts are
// approximate.
#pragma once

#include <cstdint>

#include <benchmark/benchmark.h>

namespace shoal::bench {

// False in sanitizer builds, where allocation_count() stays 0.
[[nodiscard]] bool allocation_counting_enabled() noexcept;

// Calls to the global operator new (all forms) since the program started, all threads.
[[nodiscard]] std::uint64_t allocation_count() noexcept;

// Counts the allocations made from its construction on.
class alloc_meter {
 public:
  alloc_meter() noexcept : start_(allocation_count()) {}

  void restart() noexcept { start_ = allocation_count(); }
  [[nodiscard]] std::uint64_t allocations() const noexcept { return allocation_count() - start_; }
  // allocations() / ops, or 0 when nothing ran.
  [[nodiscard]] double per(double ops) const noexcept {
    return ops > 0 ? static_cast<double>(allocations()) / ops : 0.0;
  }

 private:
  std::uint64_t start_;
};

// Sets the "allocs/op" counter: allocations since `meter` started, per `ops` operations.
inline void report_allocs(benchmark::State& state, const alloc_meter& meter, double ops) {
  if (allocation_counting_enabled()) state.counters["allocs/op"] = meter.per(ops);
}
// The same, one operation per benchmark iteration.
inline void report_allocs(benchmark::State& state, const alloc_meter& meter) {
  report_allocs(state, meter, static_cast<double>(state.iterations()));
}

}  // namespace shoal::bench
