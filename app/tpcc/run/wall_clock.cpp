// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/wall_clock.cpp: waiting for --start-at (see wall_clock.hpp).
#include "run/wall_clock.hpp"

#include <algorithm>

#include "shoal/sleep.hpp"

namespace tpcc::run {

using std::chrono::system_clock;

shoal::task<bool> sleep_until_wall(system_clock::time_point at) {
  while (true) {
    const auto left = at - system_clock::now();
    if (left <= system_clock::duration::zero()) co_return true;
    const auto step = std::min<std::chrono::nanoseconds>(left, std::chrono::seconds(1));
    const bool slept = co_await shoal::sleep_for(step);
    if (!slept) co_return false;
  }
}

}  // namespace tpcc::run
