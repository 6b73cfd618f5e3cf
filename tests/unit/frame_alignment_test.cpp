// SPDX-License-Identifier: Apache-2.0
// Coroutine frames honour over-aligned promises and locals (issue 20, finding 7), and ordinary
// frames pay nothing for it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

#include "shoal/frame_allocator.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/when_all.hpp"
#include "shoal/yield.hpp"

namespace {

using shoal::task;

std::size_t misalignment(const void* address, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(address) % alignment;
}

// A result aligned beyond every allocator's default; it lives in the promise of its task.
struct alignas(128) wide_result {
  int value;
};

task<wide_result> a_wide_result() {
  co_await shoal::yield();  // every frame of the test is alive at once
  co_return wide_result{7};
}

// `co_await t` on an lvalue task gives a reference to the value inside its promise.
task<std::size_t> misalignment_of_a_wide_result() {
  task<wide_result> child = a_wide_result();
  const wide_result& in_promise = co_await child;
  co_return in_promise.value == 7 ? misalignment(&in_promise, alignof(wide_result)) : 999;
}

// Eight frames alive at once: with frames aligned to 16 bytes, each promise is 128-aligned with
// probability 1/8, so all eight are aligned by chance once in 16 million runs.
TEST(FrameAlignment, AnOverAlignedResultIsAlignedInItsPromise) {
  auto all = []() -> task<std::vector<std::size_t>> {
    std::vector<task<std::size_t>> children;
    children.reserve(8);
    for (int i = 0; i < 8; ++i) children.push_back(misalignment_of_a_wide_result());
    co_return co_await shoal::when_all(std::move(children));
  };
  for (const std::size_t m : shoal::sync_wait(all())) EXPECT_EQ(m, 0u);
}

// A local aligned beyond a cache line, as a padded counter or a SIMD block would be.
struct alignas(256) wide_local {
  int value = 0;
};

// Takes the address out of the compiler's sight, so the local lives in the frame.
wide_local* volatile escaped = nullptr;
[[gnu::noinline]] void touch(wide_local& local) {
  escaped = &local;
  ++escaped->value;
}

task<std::size_t> misalignment_of_a_wide_local() {
  wide_local local;
  touch(local);
  co_await shoal::yield();  // the local lives across a suspension
  touch(local);
  co_return local.value == 2 ? misalignment(&local, alignof(wide_local)) : 999;
}

TEST(FrameAlignment, AnOverAlignedLocalLivingAcrossASuspensionIsAligned) {
#if defined(__GNUC__) && !defined(__clang__)
  GTEST_SKIP() << "g++ 12 tells no operator new the alignment of a frame's locals (GCC bug 104177)";
#endif
  auto all = []() -> task<std::vector<std::size_t>> {
    std::vector<task<std::size_t>> children;
    children.reserve(8);
    for (int i = 0; i < 8; ++i) children.push_back(misalignment_of_a_wide_local());
    co_return co_await shoal::when_all(std::move(children));
  };
  for (const std::size_t m : shoal::sync_wait(all())) EXPECT_EQ(m, 0u);
}

TEST(FrameAllocator, AnOverAlignedRequestIsAlignedAndCountedAsASystemAllocation) {
  const auto before = shoal::this_thread_frame_stats();
  std::vector<void*> frames;
  frames.reserve(8);
  for (int i = 0; i < 8; ++i) frames.push_back(shoal::frame_allocate(200, std::align_val_t{512}));
  for (void* frame : frames) EXPECT_EQ(misalignment(frame, 512), 0u);
  for (void* frame : frames) shoal::frame_deallocate(frame, 200, std::align_val_t{512});
  const auto after = shoal::this_thread_frame_stats();
  EXPECT_EQ(after.allocations - before.allocations, 8u);
  EXPECT_EQ(after.system_allocations - before.system_allocations, 8u);
}

// Ordinary frames keep the size-class cache: a request aligned no more than the default goes
// where an unaligned one goes, and comes back from the cache.
TEST(FrameAllocator, AnOrdinarilyAlignedRequestUsesTheSizeClassCache) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "sanitizer build: recycling is off";
  constexpr std::align_val_t ordinary{__STDCPP_DEFAULT_NEW_ALIGNMENT__};
  shoal::frame_deallocate(shoal::frame_allocate(200, ordinary), 200, ordinary);  // warm
  const auto before = shoal::this_thread_frame_stats();
  void* frame = shoal::frame_allocate(200, ordinary);
  shoal::frame_deallocate(frame, 200);  // the same block either way
  const auto after = shoal::this_thread_frame_stats();
  EXPECT_EQ(after.system_allocations, before.system_allocations);
}

}  // namespace
