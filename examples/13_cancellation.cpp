// SPDX-License-Identifier: Apache-2.0
// 13_cancellation: a std::stop_token reaches everything a coroutine awaits, without being passed.
//
// Shows: `shoal::with_stop_token(token, t)` runs t under a token, and everything t awaits,
// however deep, inherits it: a stop request from another thread (here main) wakes a sleep at
// once (it returns false) and a channel receive (it returns nullopt), and plain code sees it
// through shoal::stop_requested(). An empty token shields a call from its caller's stop.
#include <shoal/channel.hpp>
#include <shoal/sleep.hpp>
#include <shoal/stop.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <chrono>
#include <cstdio>
#include <latch>
#include <optional>
#include <stop_token>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;

struct outcome {  // written by the worker, read by main after the latch
  bool slept_an_hour = true;
  std::optional<int> order = 0;
  bool saw_stop = false;
  bool shielded_slept = false;
};

shoal::task<bool> nap() { co_return co_await shoal::sleep_for(1h); }  // false: stopped early

shoal::task<std::optional<int>> next_order(shoal::channel<int>& ch) {
  co_return co_await ch.receive();
}

shoal::task<void> clerk(shoal::channel<int>& orders, outcome& out) {
  out.slept_an_hour = co_await nap();
  out.order = co_await next_order(orders);  // nothing is ever sent: only the stop ends it
  out.saw_stop = shoal::stop_requested();
  out.shielded_slept = co_await shoal::with_stop_token(std::stop_token{}, shoal::sleep_for(5ms));
}

shoal::task<void> run(std::stop_token token, shoal::channel<int>& orders, outcome& out,
                      std::latch& done) {
  co_await shoal::with_stop_token(std::move(token), clerk(orders, out));
  done.count_down();  // release: pairs with main's wait()
}

}  // namespace

int main() {
  std::printf("13_cancellation\n");
  shoal::channel<int> orders(1);
  outcome out;
  std::stop_source source;
  std::latch done(1);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  pool.spawn(run(source.get_token(), orders, out, done));
  source.request_stop();  // while it waits, or before it starts: the same outcome
  done.wait();
  shoal::sync_wait(pool.stop());
  examples::check(!out.slept_an_hour, "the hour's sleep woke at once and returned false");
  examples::check(!out.order.has_value(),
                  "the receive returned nullopt instead of waiting forever");
  examples::check(out.saw_stop, "plain code saw the stop through stop_requested()");
  examples::check(out.shielded_slept, "under an empty token the 5 ms sleep ran to its end");
  return examples::finish("13_cancellation");
}
