// SPDX-License-Identifier: Apache-2.0
// A program outside shoal's source tree, built against an installed shoal (find_package or
// pkg-config; see check.sh). Runs a task on a thread_pool and exits 0 when it ran on a pool
// worker and produced the right value, 1 otherwise.
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <chrono>
#include <cstdio>

namespace {

shoal::task<int> square_on_pool(shoal::thread_pool& pool, int x) {
  co_await pool.schedule();
  co_await shoal::sleep_for(std::chrono::milliseconds(1));
  co_return shoal::thread_pool::current() == &pool ? x* x : -1;
}

}  // namespace

int main() {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  const int result = shoal::sync_wait(square_on_pool(pool, 7));
  shoal::sync_wait(pool.stop());
  std::printf("shoal consumer: 7 * 7 = %d, computed on a pool worker\n", result);
  return result == 49 ? 0 : 1;
}
