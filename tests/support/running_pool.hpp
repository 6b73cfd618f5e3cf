// SPDX-License-Identifier: Apache-2.0
// running_pool.hpp: a thread_pool started for one test and stopped at its end, as main would;
// `eventually(done)` polls a background event for up to 10 s; `stop_error(pool)` is a stop's
// error message, or "" when it succeeded.
//
// In builds that shuffle ready work (the dev presets) the seed is printed, and the environment
// variable SHOAL_TEST_SHUFFLE_SEED replays a given one.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::testing {

inline std::uint64_t shuffle_seed_from_environment() {
  const char* text = std::getenv("SHOAL_TEST_SHUFFLE_SEED");
  return text != nullptr ? std::stoull(text) : 0;
}

struct running_pool {
  explicit running_pool(std::size_t workers)
      : pool({.workers = workers, .shuffle_seed = shuffle_seed_from_environment()}) {
    if (detail::shuffle_by_default) {
      std::cout << "[shoal] ready queues shuffled, SHOAL_TEST_SHUFFLE_SEED=" << pool.shuffle_seed()
                << '\n';
    }
    pool.start();
  }
  running_pool(const running_pool&) = delete;
  running_pool& operator=(const running_pool&) = delete;
  ~running_pool() { shoal::sync_wait(pool.stop()); }

  thread_pool pool;
};

// Polls `done` for up to 10 s (a wall-clock wait for a background event, never a timing check).
template <class Done>
bool eventually(Done done) {
  for (int i = 0; i < 10'000 && !done(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

// The stop's error message, or "" when it succeeded.
inline std::string stop_error(thread_pool& pool) {
  try {
    shoal::sync_wait(pool.stop());
    return "";
  } catch (const std::logic_error& e) {
    return e.what();
  }
}

}  // namespace shoal::testing
