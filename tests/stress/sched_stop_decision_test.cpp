// SPDX-License-Identifier: Apache-2.0
// The stop decision and a blocking call completing at the same moment (issue 27, item 2): the
// subpool thread posts the continuation, then uncounts the call. A decision that read the queues
// before the post and the count after the decrement saw neither, and refused the stop for a
// chain that was ready. The probe (pool/pool_state.hpp) finishes the call exactly between the
// decision's two reads, so the window is hit every run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <stdexcept>
#include <thread>

#include "pool/pool_state.hpp"
#include "shoal/run_blocking.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace {

using namespace std::chrono_literals;

std::atomic<bool> probe_armed{false};
std::atomic<bool> call_may_return{false};

// The decision's probe: the first time, lets the blocking call return and waits (bounded: a
// wall-clock wait for a background event, never a timing check) until its thread has posted
// the continuation and uncounted it.
void finish_the_call_here(const shoal::detail::blocking_subpool& blocking) noexcept {
  if (!probe_armed.exchange(false)) return;
  call_may_return.store(true);
  for (int i = 0; i < 10'000 && blocking.in_flight() != 0; ++i) std::this_thread::sleep_for(1ms);
}

TEST(StopDecision, ABlockingCallCompletingDuringTheDecisionIsNotRefused) {
  shoal::thread_pool pool({.workers = 1, .blocking_threads = 1});
  pool.start();
  std::latch started(1);
  std::atomic<bool> finished{false};
  pool.spawn([](std::latch& go, std::atomic<bool>& done) -> shoal::task<> {
    co_await shoal::run_blocking([&go] {
      go.count_down();
      while (!call_may_return.load()) std::this_thread::sleep_for(100us);
    });
    done.store(true);
  }(started, finished));
  started.wait();
  probe_armed.store(true);
  shoal::detail::stop_decision_probe = &finish_the_call_here;
  bool refused = false;
  try {
    shoal::sync_wait(pool.stop());
  } catch (const std::logic_error& e) {
    refused = true;
    ADD_FAILURE() << "stop refused: " << e.what();
  }
  shoal::detail::stop_decision_probe = nullptr;
  EXPECT_FALSE(probe_armed.load()) << "the decision never reached the probe";
  if (refused) shoal::sync_wait(pool.stop());  // the chain is ready: this one succeeds
  EXPECT_TRUE(finished.load());
}

}  // namespace
