// SPDX-License-Identifier: Apache-2.0
// shoal/frame_allocator.hpp: where shoal's coroutine frames come from.
//
// A thread-local, size-class recycling allocator: every shoal coroutine frame is allocated with
// `frame_allocate` and returned with `frame_deallocate`; a freed frame is reused by the next frame
// of its size class on the freeing thread, so in steady state an await of a child task costs no
// call to the system allocator. Larger and over-aligned frames go to ::operator new. Size classes,
// alignment (and g++ 12's limit), the caches and the shared depot:
// docs/design/task-and-transfer.md.
//
// Lifetime: each thread's cache is bounded (frame_cache_bytes_per_class per class) and returned to
// the system when the thread exits; a frame freed on another thread joins the freeing thread's
// cache, and full caches pass frames in batches through a bounded shared depot.
// Thread-safety: any thread; the per-thread caches share nothing, the depot is spin-locked.
// AddressSanitizer builds of shoal pass every request straight to the system allocator so
// use-after-free stays visible.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <new>

namespace shoal {

/// The size classes: multiples of this many bytes, frame_size_classes of them; and the most
/// a thread caches per class.
inline constexpr std::size_t frame_size_class_bytes = 64;
inline constexpr std::size_t frame_size_classes = 32;  // up to 2 KiB
inline constexpr std::size_t frame_cache_bytes_per_class = std::size_t{256} * 1024;

/// Counters of this thread's allocator, for tests and benchmarks.
struct frame_allocator_stats {
  std::uint64_t allocations = 0;         // frame_allocate calls
  std::uint64_t system_allocations = 0;  // of which served by ::operator new
  /// Bytes of freed frames this thread's cache holds now, per class (index i: frames of up to
  /// (i + 1) * frame_size_class_bytes), each at most frame_cache_bytes_per_class.
  std::array<std::size_t, frame_size_classes> cached_bytes{};
};

/// Returns at least `size` bytes, aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__. Throws
/// std::bad_alloc like ::operator new.
/// Not inline, on purpose: code running on a stackful fiber (shoal/fiber.hpp) may be suspended
/// inside one function and resumed on another thread, and a compiler may keep the address of a
/// thread-local it computed before the suspension; an inlined cache access would then use the
/// first thread's cache from the second (a data race, found by TSan with the fast path inlined).
/// A call computes the address afresh; its fast path is a few instructions (frame_allocator.cpp).
[[nodiscard]] void* frame_allocate(std::size_t size);

/// Returns memory from frame_allocate; `size` must be the size that was requested. Not inline,
/// for the same reason.
void frame_deallocate(void* frame, std::size_t size) noexcept;

/// Returns at least `size` bytes aligned to `alignment` (a power of two). An alignment up to
/// __STDCPP_DEFAULT_NEW_ALIGNMENT__ is frame_allocate(size); a larger one goes to the system
/// allocator, uncached. Throws std::bad_alloc like ::operator new.
[[nodiscard]] void* frame_allocate(std::size_t size, std::align_val_t alignment);

/// Returns memory from frame_allocate(size, alignment), with the same size and alignment.
void frame_deallocate(void* frame, std::size_t size, std::align_val_t alignment) noexcept;

/// False in AddressSanitizer builds of shoal, where every frame goes to the system allocator.
[[nodiscard]] bool frame_recycling_enabled() noexcept;

/// Counters of this thread's allocator (frame_allocator_stats, above), for tests and benchmarks.
[[nodiscard]] frame_allocator_stats this_thread_frame_stats() noexcept;

}  // namespace shoal
