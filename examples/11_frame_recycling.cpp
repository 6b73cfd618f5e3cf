// SPDX-License-Identifier: Apache-2.0
// 11_frame_recycling: awaiting a child task in a loop costs no call to the system allocator.
//
// Shows: coroutine frames come from a thread-local recycling allocator
// (shoal/frame_allocator.hpp); 10,000 awaits of a child task take a handful of frames from the
// system and reuse them. this_thread_frame_stats() counts both. Sanitizer builds turn
// recycling off (every frame is then a system allocation) and the example says so.
#include <shoal/frame_allocator.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <cstdio>

#include "support/check.hpp"

namespace {

shoal::task<int> add(int a, int b) { co_return a + b; }

shoal::task<int> count_awaits(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += co_await add(i, 1) - i;  // one child frame per await
  co_return total;
}

}  // namespace

int main() {
  std::printf("11_frame_recycling\n");
  constexpr int awaits = 10'000;
  const shoal::frame_allocator_stats before = shoal::this_thread_frame_stats();
  examples::check(shoal::sync_wait(count_awaits(awaits)) == awaits, "10,000 awaits of a child");
  const shoal::frame_allocator_stats after = shoal::this_thread_frame_stats();
  const auto frames = after.allocations - before.allocations;
  const auto system = after.system_allocations - before.system_allocations;
  std::printf("  frames allocated: %llu, of which from the system allocator: %llu\n",
              static_cast<unsigned long long>(frames), static_cast<unsigned long long>(system));
  if (shoal::frame_recycling_enabled()) {
    examples::check(system <= 8, "frames are recycled: a handful from the system, not 10,000");
  } else {
    std::printf("  (sanitizer build: recycling is off, every frame is a system allocation)\n");
  }
  return examples::finish("11_frame_recycling");
}
