// SPDX-License-Identifier: Apache-2.0
// The frame allocator's per-thread cache keeps at most frame_cache_bytes_per_class bytes of each
// size class, the frames waiting to make a batch for the depot included (issue 27, item 5); a
// frame made through its size class (detail/frame_class.hpp: coroutine frames) is the same frame
// as one made by its size (issue 36).
#include <gtest/gtest.h>

#include <cstddef>
#include <thread>
#include <vector>

#include "shoal/detail/frame_class.hpp"
#include "shoal/frame_allocator.hpp"

namespace {

// Frees `frames` frames of the largest class on a fresh thread (an empty cache); returns the
// most bytes that thread's cache of the class held after any one of the frees.
std::size_t peak_cached_bytes_of_largest_class(std::size_t frames) {
  constexpr std::size_t largest = shoal::frame_size_classes - 1;
  constexpr std::size_t bytes = shoal::frame_size_classes * shoal::frame_size_class_bytes;
  std::size_t peak = 0;
  std::thread([&] {
    std::vector<void*> held;
    held.reserve(frames);
    for (std::size_t i = 0; i < frames; ++i) held.push_back(shoal::frame_allocate(bytes));
    for (void* frame : held) {
      shoal::frame_deallocate(frame, bytes);
      const std::size_t now = shoal::this_thread_frame_stats().cached_bytes[largest];
      peak = now > peak ? now : peak;
    }
  }).join();
  return peak;
}

TEST(FrameCache, AThreadKeepsNoMoreThanTheDocumentedBytesPerClass) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "frames go to the system (ASan)";
  // Enough frees to fill the class, then a batch and all but one frame of the next.
  const std::size_t frames = 4 * shoal::frame_cache_bytes_per_class /
                             (shoal::frame_size_classes * shoal::frame_size_class_bytes);
  const std::size_t peak = peak_cached_bytes_of_largest_class(frames);
  EXPECT_LE(peak, shoal::frame_cache_bytes_per_class)
      << "peak " << peak / 1024 << " KiB against a cap of "
      << shoal::frame_cache_bytes_per_class / 1024 << " KiB";
  EXPECT_GT(peak, 0u);  // it does cache
}

// Frames made and freed by class (as coroutine frames are) and by size share one list per class
// and one count of allocations; a frame beyond the classes goes to the system either way.
TEST(FrameCache, AFrameMadeThroughItsClassIsAFrameOfThatClassForTheSizedCalls) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "frames go to the system (ASan)";
  std::thread([] {                           // a fresh thread: an empty cache
    constexpr std::size_t class_of_200 = 3;  // frames of 193 .. 256 bytes
    const auto before = shoal::this_thread_frame_stats();
    void* by_class = shoal::detail::frame_allocate_sized(200);
    shoal::frame_deallocate(by_class, 256);
    EXPECT_EQ(shoal::this_thread_frame_stats().cached_bytes[class_of_200], 256u);
    void* by_size = shoal::frame_allocate(193);
    EXPECT_EQ(by_size, by_class);  // the class's list gave it back
    EXPECT_EQ(shoal::this_thread_frame_stats().cached_bytes[class_of_200], 0u);
    shoal::detail::frame_deallocate_sized(by_size, 250);
    EXPECT_EQ(shoal::this_thread_frame_stats().cached_bytes[class_of_200], 256u);

    constexpr std::size_t beyond = shoal::frame_size_classes * shoal::frame_size_class_bytes + 1;
    const auto before_big = shoal::this_thread_frame_stats();
    void* big = shoal::detail::frame_allocate_sized(beyond);
    shoal::detail::frame_deallocate_sized(big, beyond);
    const auto after = shoal::this_thread_frame_stats();
    EXPECT_EQ(after.system_allocations - before_big.system_allocations, 1u);
    EXPECT_EQ(after.allocations - before.allocations, 3u);
  })
      .join();
}

}  // namespace
