// running_pool.hpp: a thread_pool started for one test and stopped at its end, as main would.
//
// In builds that shuffle ready work (the dev presets) the seed is printed, and the environment
// variable SHOAL_TEST_SHUFFLE_SEED replays a given one.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

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

}  // namespace shoal::testing
