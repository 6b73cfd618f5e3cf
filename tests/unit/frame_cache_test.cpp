// SPDX-License-Identifier: Apache-2.0
// The frame allocator's per-thread cache keeps at most frame_cache_bytes_per_class bytes of each
// size class, the frames waiting to make a batch for the depot included (issue 27, item 5).
#include <gtest/gtest.h>

#include <cstddef>
#include <thread>
#include <vector>

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

}  // namespace
