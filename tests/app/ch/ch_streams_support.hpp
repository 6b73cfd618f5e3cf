// SPDX-License-Identifier: Apache-2.0
// ch_streams_support.hpp: what the analytic streams' server tests share: awaiting a task on the
// pool from the test's thread, and the cancellation check every server passes the same way.
//
// expect_server_cancels(pool, target, dialect, slow, running): one stream of `slow` (a
// statement that runs for minutes) on a database of its own at `target`; once `running()` says
// the server runs it (polled from the test's thread: no event tells the client), the stream is
// ended with a grace of 10 minutes, so that only the driver's cancel request can end it within
// the test's time limit. Then: not ended by the stop token, Q1 counted cancelled and nothing
// else, the connection kept (not replaced), and the server no longer running it.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "loader_support.hpp"
#include "run/analytic.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::testing {

template <class T>
T on_stream_workers(shoal::thread_pool& pool, shoal::task<T> body) {
  return shoal::sync_wait([](shoal::thread_pool& p, shoal::task<T> b) -> shoal::task<T> {
    co_await p.schedule();
    co_return co_await std::move(b);
  }(pool, std::move(body)));
}

inline void expect_server_cancels(shoal::thread_pool& pool, std::string target,
                                  driver::engine dialect, const driver::statement& slow,
                                  const std::function<bool()>& running) {
  using namespace std::chrono_literals;
  auto db = on_stream_workers(pool, opened(std::move(target), 1));
  run::analytic_plan plan;
  plan.databases = {db.get()};
  plan.dialect = dialect;
  plan.window_start = stats::clock::now();
  plan.window_end = plan.window_start + 1h;
  plan.only = &slow;
  plan.grace = 10min;
  run::analytic_streams streams(pool, std::move(plan));
  streams.start();
  for (int i = 0; i < 3000 && !running(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(running());  // stopped all the same, so that nothing outlives the test
  on_stream_workers(pool, streams.stop());
  EXPECT_EQ(streams.hard_stopped(), 0u);  // the cancel request ended it, not the stop token
  const run::ch_totals t = streams.take();
  EXPECT_EQ(t.queries[0].cancelled, 1u);  // stream 0 starts at Q1
  EXPECT_EQ(t.cancelled(), 1u);
  EXPECT_EQ(t.failed(), 0u);
  EXPECT_EQ(t.completed(), 0u);
  EXPECT_EQ(db->stats().replaced, 0u);  // the connection was kept
  EXPECT_FALSE(running());              // the server no longer runs it
  on_stream_workers(pool, db->close());
}

}  // namespace tpcc::testing
