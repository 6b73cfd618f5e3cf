// shoal/frame_allocator.hpp: where shoal's coroutine frames come from.
//
// What: a thread-local, size-class recycling allocator. Every shoal coroutine frame (task,
// roots, fibers later) is allocated with `frame_allocate` and returned with `frame_deallocate`.
// A freed frame goes onto the freeing thread's free list for its size class (64-byte classes up
// to 2 KiB) and the next frame of that class on that thread reuses it: in steady state an await
// of a child task costs no call to the system allocator. Larger frames go to ::operator new.
//
// Alignment: frames are aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__ (16 bytes) unless the frame
// needs more. A promise aligned beyond that (a task whose result type is over-aligned) is
// honoured on every compiler: the promise's operator new knows its alignment. A local aligned
// beyond it is honoured by clang at any optimisation level when compiled with
// -fcoro-aligned-allocation (shoal's CMake target adds it, with SHOAL_CORO_ALIGNED_ALLOCATION=1,
// to every clang consumer; pkg-config users add both themselves), because clang then passes the
// frame's own alignment to the promise. g++ 12 passes none (GCC bug 104177): a local aligned
// beyond 16 bytes in a shoal coroutine built by g++ may be misaligned; heap-allocate it there.
// Over-aligned frames bypass the size-class cache (each is a ::operator new(size, align_val_t));
// ordinary frames pay no byte and no branch for any of this.
//
// Lifetime: each thread's cache holds at most `frame_cache_bytes_per_class` bytes per class
// (the frames gathering into a batch for the depot included; this_thread_frame_stats() reports
// it) and is returned to the system when the thread exits. A frame freed on another thread than
// the one that allocated it joins the freeing thread's cache; once that cache is full, frames
// move in batches of 64 to a shared depot (at most 4 MiB per class), from which a thread whose
// cache is empty takes a batch before it asks the system: a thread that posts work to a pool
// gets back, in steady state, the frames the workers free.
//
// Thread-safety: the per-thread caches share nothing; the depot is a spin-locked stack of
// batches per class, touched once per 64 frames. AddressSanitizer
// builds of shoal pass every request straight to the system allocator so use-after-free stays
// visible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

#include "shoal/detail/frame_cache.hpp"

namespace shoal {

// Returns at least `size` bytes, aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__. Throws
// std::bad_alloc like ::operator new. Inline: a frame of a cached class comes off this thread's
// free list without a call.
[[nodiscard]] inline void* frame_allocate(std::size_t size) {
  ++detail::frame_stats.allocations;
  const std::size_t index = detail::frame_class_index(size);
  if (index < frame_size_classes) {
    detail::frame_size_class& c = detail::frame_classes[index];
    if (detail::frame_free_block* frame = c.head) {
      c.head = frame->next;
      --c.count;
      // A frame recycled from another thread (through the depot) is a cache miss: start the
      // next one's header and promise now, while this one is being filled (a hint; it may be
      // null, and a prefetch never faults).
      __builtin_prefetch(c.head, 1);
      return frame;
    }
  }
  return detail::frame_allocate_slow(size);
}

// Returns memory from frame_allocate; `size` must be the size that was requested. Inline: a
// frame of a cached class goes onto this thread's free list without a call while it has room.
inline void frame_deallocate(void* frame, std::size_t size) noexcept {
  const std::size_t index = detail::frame_class_index(size);
  if (index < frame_size_classes && detail::frame_cache_state == 1) {
    detail::frame_size_class& c = detail::frame_classes[index];
    if (c.count < detail::frame_class_limits[index]) {
      c.head = new (frame) detail::frame_free_block{c.head, nullptr};
      ++c.count;
      return;
    }
  }
  detail::frame_deallocate_slow(frame, size);
}

// Returns at least `size` bytes aligned to `alignment` (a power of two). An alignment up to
// __STDCPP_DEFAULT_NEW_ALIGNMENT__ is frame_allocate(size); a larger one goes to the system
// allocator, uncached. Throws std::bad_alloc like ::operator new.
[[nodiscard]] void* frame_allocate(std::size_t size, std::align_val_t alignment);

// Returns memory from frame_allocate(size, alignment), with the same size and alignment.
void frame_deallocate(void* frame, std::size_t size, std::align_val_t alignment) noexcept;

// False in AddressSanitizer builds of shoal, where every frame goes to the system allocator.
[[nodiscard]] bool frame_recycling_enabled() noexcept;

// Counters of this thread's allocator (frame_allocator_stats, detail/frame_cache.hpp), for tests
// and benchmarks.
[[nodiscard]] frame_allocator_stats this_thread_frame_stats() noexcept;

}  // namespace shoal
