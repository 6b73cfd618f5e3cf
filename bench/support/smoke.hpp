// SPDX-License-Identifier: Apache-2.0
// bench/support/smoke.hpp: full sizes for measurement runs, tiny ones for the ctest smoke run.
//
// The smoke tests (ctest label "bench-smoke") set SHOAL_BENCH_SMOKE=1. They prove each benchmark
// still builds and runs, also under ASan and TSan, in a few seconds; their numbers mean nothing.
// Benchmarks read the mode when they register (static initialisation) and when they run.
#pragma once

#include <cstdlib>
#include <string_view>
#include <utility>

namespace shoal::bench {

// True when SHOAL_BENCH_SMOKE is set to anything but "" or "0".
[[nodiscard]] inline bool smoke_mode() noexcept {
  static const bool on = [] {
    const char* value = std::getenv("SHOAL_BENCH_SMOKE");
    return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
  }();
  return on;
}

// `full` in a measurement run, `smoke` in the smoke run.
template <class T>
[[nodiscard]] T full_or_smoke(T full, T smoke) {
  return smoke_mode() ? std::move(smoke) : std::move(full);
}

}  // namespace shoal::bench
