// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/server_clock.cpp: the simulated database's shared server (see
// server_clock.hpp).
#include "driver/sim/server_clock.hpp"

#include <algorithm>
#include <cmath>

namespace tpcc::driver::sim {

server_clock::server_clock(double per_second) noexcept : service_(std::llround(1e9 / per_second)) {}

std::chrono::steady_clock::time_point server_clock::take(
    std::chrono::steady_clock::time_point now) noexcept {
  using rep = std::chrono::steady_clock::rep;
  rep free = free_at_.load(std::memory_order_relaxed);
  rep done = 0;
  do {  // relaxed: the slot's time is the only data, carried by the value itself
    done = std::max(free, now.time_since_epoch().count()) + service_.count();
  } while (!free_at_.compare_exchange_weak(free, done, std::memory_order_relaxed));
  return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(done));
}

}  // namespace tpcc::driver::sim
